package dev.modelgateway.server;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.UnsynchronizedAppenderBase;
import ch.qos.logback.core.spi.AppenderAttachable;
import ch.qos.logback.core.spi.AppenderAttachableImpl;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The access log's appender (set up by {@code LogConfigurator}): like logback's {@code AsyncAppender} it never makes a request wait on
 * the console (a full queue drops the line), but its worker takes the queued lines in batches, at most every
 * {@code batchMillis}, instead of blocking on the queue: an idle {@code AsyncAppender} worker is woken by every
 * line, which on a busy gateway is one thread switch per request on the event loop's own core. Only an idle
 * worker (nothing logged for a whole batch period) is woken, by the first line that follows.
 *
 * <p>The message is formatted by the worker: the access log's arguments are immutable (strings and numbers).
 */
public final class AccessLogAppender extends UnsynchronizedAppenderBase<ILoggingEvent>
        implements AppenderAttachable<ILoggingEvent> {
    private final AppenderAttachableImpl<ILoggingEvent> appenders = new AppenderAttachableImpl<>();
    private final AtomicLong dropped = new AtomicLong();
    private int queueSize = 8192;
    private long batchMillis = 20;
    private BlockingQueue<ILoggingEvent> queue;
    private Thread worker;
    private volatile boolean idle;

    public void setQueueSize(int queueSize) {
        this.queueSize = queueSize;
    }

    public void setBatchMillis(long batchMillis) {
        this.batchMillis = batchMillis;
    }

    @Override
    public void start() {
        if (isStarted()) return;
        if (queueSize < 1 || batchMillis < 1) {
            addError("queueSize and batchMillis must be positive");
            return;
        }
        queue = new ArrayBlockingQueue<>(queueSize);
        super.start();
        worker = Thread.ofPlatform().daemon().name("access-log").start(this::run);
    }

    @Override
    public void stop() {
        if (!isStarted()) return;
        super.stop();
        LockSupport.unpark(worker);
        try {
            worker.join(1_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        appenders.detachAndStopAllAppenders();
    }

    @Override
    protected void append(ILoggingEvent event) {
        event.getThreadName();
        event.getMDCPropertyMap();
        if (!queue.offer(event)) {
            dropped.incrementAndGet();
            return;
        }
        if (idle) LockSupport.unpark(worker);
    }

    private void run() {
        List<ILoggingEvent> batch = new ArrayList<>();
        while (isStarted()) {
            idle = true;
            if (queue.isEmpty() && isStarted()) LockSupport.park(this);
            idle = false;
            // let the batch fill: lines logged meanwhile cost their threads no wake-up (stop() cuts the wait short)
            if (isStarted()) LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(batchMillis));
            drain(batch);
        }
        drain(batch);
    }

    private void drain(List<ILoggingEvent> batch) {
        while (queue.drainTo(batch) > 0) {
            for (ILoggingEvent e : batch) appenders.appendLoopOnAppenders(e);
            batch.clear();
        }
        long lost = dropped.getAndSet(0);
        if (lost > 0) addWarn(lost + " access log lines dropped: the log output did not keep up");
    }

    @Override
    public void addAppender(Appender<ILoggingEvent> appender) {
        appenders.addAppender(appender);
    }

    @Override
    public Iterator<Appender<ILoggingEvent>> iteratorForAppenders() {
        return appenders.iteratorForAppenders();
    }

    @Override
    public Appender<ILoggingEvent> getAppender(String name) {
        return appenders.getAppender(name);
    }

    @Override
    public boolean isAttached(Appender<ILoggingEvent> appender) {
        return appenders.isAttached(appender);
    }

    @Override
    public void detachAndStopAllAppenders() {
        appenders.detachAndStopAllAppenders();
    }

    @Override
    public boolean detachAppender(Appender<ILoggingEvent> appender) {
        return appenders.detachAppender(appender);
    }

    @Override
    public boolean detachAppender(String name) {
        return appenders.detachAppender(name);
    }
}
