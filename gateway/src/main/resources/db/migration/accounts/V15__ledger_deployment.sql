-- Which deployment served each call (routing/Deployment.id: provider/model, #n for a provider's n-th key), so that
-- a row is billed, and re-priced, at that deployment's own price when the configuration gives it one
-- (docs/clouds.md, "Prices"). NULL for the rows before it, and for calls no deployment served.

ALTER TABLE usage_ledger ADD COLUMN deployment VARCHAR(500);
