-- Per-model limits of a key: JSON object {"<model glob>": {"rpm": N, "tpm": N}}, in matching order; NULL = none.
ALTER TABLE api_keys ADD COLUMN model_limits TEXT;
