package dev.modelgateway.testing;

import org.junit.jupiter.api.Tag;

import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Needs the PostgreSQL and Redis that {@code scripts/services.sh} starts: the {@code stores} tag, left out
 * of {@code ./gw check}.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@Tag("stores")
public @interface ExternalStores {
}
