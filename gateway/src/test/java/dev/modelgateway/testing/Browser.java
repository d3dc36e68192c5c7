package dev.modelgateway.testing;

import org.junit.jupiter.api.Tag;

import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Drives the console in Chromium through WebDriver ({@code scripts/browser.sh}): the {@code browser} tag,
 * left out of {@code ./gw check}.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@Tag("browser")
public @interface Browser {
}
