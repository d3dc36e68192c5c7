package dev.modelgateway.testing;

import org.junit.jupiter.api.Tag;

import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Starts a gateway, a vendor simulator or another server on loopback and talks to it over HTTP: the
 * {@code e2e} tag, left out of {@code ./gw check}.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@Tag("e2e")
public @interface E2e {
}
