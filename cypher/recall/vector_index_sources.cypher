// recall/vector_index_sources: the vector index over source text embeddings (cosine), beside the
// fact index; a source hit brings the facts drawn from it.
CREATE VECTOR INDEX source_embedding IF NOT EXISTS FOR (s:Source) ON (s.embedding)
OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine'}}
