/**
 * The public model list, aliases, prices and thinking policies (catalogue.yaml), and the rules that turn a
 * caller's model string into a model (docs/contract.md §2.1).
 *
 * <p>May import canonical, config, error. Pure once loaded.
 */
package dev.modelgateway.catalogue;
