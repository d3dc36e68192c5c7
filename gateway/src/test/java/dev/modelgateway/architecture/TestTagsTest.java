package dev.modelgateway.architecture;

import dev.modelgateway.testing.E2e;
import dev.modelgateway.testing.ExternalStores;
import org.junit.jupiter.api.Test;
import org.junit.platform.commons.support.AnnotationSupport;
import org.junit.platform.commons.support.HierarchyTraversalMode;
import org.junit.platform.commons.support.ReflectionSupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The tags {@code ./gw check} relies on to leave the slow tests out (docs/architecture.md, "Tests"): a test class under
 * {@code e2e} is {@link E2e}, and one whose source reaches the PostgreSQL or Redis of {@code scripts/services.sh}
 * through the shared helpers is {@link ExternalStores}; an untagged test is a unit test.
 */
class TestTagsTest {
    private static final Path SOURCES = Path.of("src/test/java");
    /** The helpers that connect to the shared PostgreSQL and Redis. */
    private static final Pattern STORE_HELPERS = Pattern.compile("\\bSharedStores\\b|\\bPgSchema\\b|deleteRedisKeys");

    @Test
    void everyTestClassUnderE2eIsTaggedE2e() {
        assertThat(untagged(E2e.class, source -> source.startsWith(SOURCES.resolve("dev/modelgateway/e2e")))).isEmpty();
    }

    @Test
    void everyTestClassUsingTheSharedStoresIsTaggedStores() {
        assertThat(untagged(ExternalStores.class, source -> !source.endsWith("architecture/TestTagsTest.java")
                && STORE_HELPERS.matcher(read(source)).find())).isEmpty();
    }

    /** The test classes whose source file matches, without the tag (its own, a superclass's or a meta-annotation's). */
    private static List<String> untagged(Class<? extends Annotation> tag, Predicate<Path> selected) {
        try (Stream<Path> files = Files.walk(SOURCES)) {
            return files.filter(f -> f.toString().endsWith(".java")).filter(selected)
                    .map(TestTagsTest::classOf)
                    .filter(c -> c != null && isTestClass(c) && !AnnotationSupport.isAnnotated(c, tag))
                    .map(Class::getName).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean isTestClass(Class<?> c) {
        if (Modifier.isAbstract(c.getModifiers()) || c.isInterface() || c.isAnnotation()) return false;
        return !ReflectionSupport.findMethods(c, TestTagsTest::isTestMethod, HierarchyTraversalMode.TOP_DOWN).isEmpty();
    }

    /** Annotated @Test, or with a JUnit or jqwik annotation that makes it one (parameterized, property). */
    private static boolean isTestMethod(Method m) {
        return Stream.of(m.getAnnotations()).map(a -> a.annotationType().getName()).anyMatch(n -> n.equals(Test.class.getName())
                || n.startsWith("org.junit.jupiter.params.") || n.equals("net.jqwik.api.Property") || n.equals("net.jqwik.api.Example"));
    }

    private static Class<?> classOf(Path source) {
        String name = SOURCES.relativize(source).toString().replace('/', '.').replaceAll("\\.java$", "");
        return ReflectionSupport.tryToLoadClass(name).toOptional().orElse(null);
    }

    private static String read(Path source) {
        try {
            return Files.readString(source);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
