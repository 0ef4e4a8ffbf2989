// Create a workflow (owned; no version is current until an owner approves one).
CREATE (w:Workflow {tenant: $tenant, name: $name, owner: $owner, delegates: $delegates, safety: $safety,
                    current_version: null, created_at: datetime($at)})
