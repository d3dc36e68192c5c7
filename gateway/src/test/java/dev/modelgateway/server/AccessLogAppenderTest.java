package dev.modelgateway.server;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import ch.qos.logback.core.read.ListAppender;
import dev.modelgateway.testing.Eventually;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/** The access log's appender delivers every line, in order, with its own time and thread, batch after batch. */
class AccessLogAppenderTest {
    private final LoggerContext context = new LoggerContext();
    private final ListAppender<ILoggingEvent> console = new ListAppender<>();
    private final AccessLogAppender appender = new AccessLogAppender();
    private final Logger access = context.getLogger("access");

    private void start(long batchMillis) {
        context.setMDCAdapter(new LogbackMDCAdapter());
        console.setContext(context);
        console.start();
        appender.setContext(context);
        appender.setBatchMillis(batchMillis);
        appender.addAppender(console);
        appender.start();
        access.setAdditive(false);
        access.setLevel(Level.INFO);
        access.addAppender(appender);
    }

    @Test
    void linesFromSeveralBurstsAndAnIdleWorkerAllArriveInOrder() {
        start(5);
        for (int burst = 0; burst < 3; burst++) {
            for (int i = 0; i < 100; i++) access.info("line {} {}", burst, i);
            int lines = 100 * (burst + 1);
            Eventually.until(lines + " lines delivered", () -> console.list.size() >= lines);
            Eventually.until("the worker idle: the next line must wake it", this::workerIdle);
        }
        assertThat(console.list).extracting(ILoggingEvent::getFormattedMessage).containsExactlyElementsOf(
                IntStream.range(0, 3).boxed().flatMap(b -> IntStream.range(0, 100).mapToObj(i -> "line " + b + " " + i)).toList());
        assertThat(console.list).extracting(ILoggingEvent::getThreadName).containsOnly(Thread.currentThread().getName());
        List<Long> times = console.list.stream().map(ILoggingEvent::getTimeStamp).toList();
        assertThat(times).isSorted();
        appender.stop();
    }

    @Test
    void stoppingDeliversWhatIsQueued() {
        start(60_000);
        access.info("queued");
        assertThat(console.list).isEmpty();
        appender.stop();
        assertThat(console.list).extracting(ILoggingEvent::getFormattedMessage).containsExactly("queued");
    }

    /** The worker parked with nothing to do (not within a batch's wait). */
    private boolean workerIdle() {
        return Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> LockSupport.getBlocker(t) == appender && t.getState() == Thread.State.WAITING);
    }
}
