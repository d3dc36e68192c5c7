package dev.modelgateway.sse;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Finding a byte eight at a time ("SWAR"): a stream is mostly long runs of text in which the parser and the taps
 * look for rare bytes. A word XOR the byte repeated in every lane has a zero lane where the byte is, and
 * {@code (x - 0x01..) & ~x & 0x80..} marks every zero lane; lanes above a marked one may be marked falsely,
 * never below, so the lowest mark is the first match and the others must be checked.
 */
final class ByteLanes {
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long LOW_BITS = 0x0101010101010101L;
    private static final long HIGH_BITS = 0x8080808080808080L;

    private ByteLanes() { }

    /** {@code b} in every lane, for {@link #marks}. */
    static long lanes(byte b) {
        return (b & 0xFFL) * LOW_BITS;
    }

    /** The eight bytes at {@code i} (the lowest lane is the byte at {@code i}). */
    static long word(byte[] bytes, int i) {
        return (long) LONGS.get(bytes, i);
    }

    /** The high bit of each lane where {@code word} may hold the byte of {@code lanes}; every such lane is marked. */
    static long marks(long word, long lanes) {
        long x = word ^ lanes;
        return (x - LOW_BITS) & ~x & HIGH_BITS;
    }

    /** The index of the lane a mark stands for, counted from the word's first byte. */
    static int lane(long marks) {
        return Long.numberOfTrailingZeros(marks) >>> 3;
    }
}
