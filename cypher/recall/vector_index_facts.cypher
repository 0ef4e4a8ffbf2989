// recall/vector_index_facts: the vector index over fact embeddings (cosine), created when an
// embedder is first used. Its dimension is the embedder's; another embedder needs it dropped first.
CREATE VECTOR INDEX fact_embedding IF NOT EXISTS FOR (f:Fact) ON (f.embedding)
OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine'}}
