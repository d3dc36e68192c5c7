package dev.modelgateway.canonical;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Counts the tokens of a text in vendor B's {@code o200k_base} byte-pair encoding, with its 200,000 ranks held in
 * three arrays (about 5 MiB). jtokkit, which the gateway used before, keeps them as two hash maps of boxed keys
 * and values: 27 MiB of live heap from the first translated request on, a quarter of the gateway's idle memory
 * (docs/performance.md). The ranks file is OpenAI's published {@code o200k_base.tiktoken} (one base64 token and
 * its rank per line); the tests check every count against jtokkit's.
 */
final class O200kBase {
    private static final String RANKS = "/tokenizer/o200k_base.tiktoken";
    /** The encoding's pre-tokenizer: the text is split into these pieces, and each piece is encoded alone. */
    private static final Pattern PIECES = Pattern.compile(String.join("|",
            "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
            "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
            "\\p{N}{1,3}",
            " ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*",
            "\\s*[\\r\\n]+",
            "\\s+(?!\\S)",
            "\\s+"), Pattern.UNICODE_CHARACTER_CLASS);
    private static final int NONE = Integer.MAX_VALUE;

    /** Every token's bytes, in rank order: token {@code r} is {@code bytes[starts[r]]} to {@code bytes[starts[r + 1]]}. */
    private final byte[] bytes;
    private final int[] starts;
    /** Open addressing on the token's bytes: {@code rank + 1}, 0 for an empty slot. */
    private final int[] slots;

    private O200kBase(byte[] bytes, int[] starts) {
        this.bytes = bytes;
        this.starts = starts;
        int tokens = starts.length - 1;
        this.slots = new int[Integer.highestOneBit(tokens * 2) * 2];
        for (int rank = 0; rank < tokens; rank++) {
            int slot = hash(bytes, starts[rank], starts[rank + 1]) & (slots.length - 1);
            while (slots[slot] != 0) slot = (slot + 1) & (slots.length - 1);
            slots[slot] = rank + 1;
        }
    }

    static O200kBase load() {
        byte[] file;
        try (InputStream in = O200kBase.class.getResourceAsStream(RANKS)) {
            if (in == null) throw new IllegalStateException(RANKS + " is missing from the jar");
            file = in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        // ranks run 0, 1, 2 … in file order; base64 never grows a token, so the file's size bounds the bytes
        byte[] bytes = new byte[file.length];
        int[] starts = new int[file.length / 4 + 2];
        Base64.Decoder base64 = Base64.getDecoder();
        int tokens = 0, used = 0;
        for (int line = 0; line < file.length; ) {
            int space = line, end;
            while (file[space] != ' ') space++;
            for (end = space; end < file.length && file[end] != '\n'; end++) { }
            int rank = Integer.parseInt(new String(file, space + 1, end - space - 1, StandardCharsets.US_ASCII).trim());
            if (rank != tokens) throw new IllegalStateException(RANKS + ": rank " + rank + " out of order");
            starts[tokens++] = used;
            byte[] token = base64.decode(Arrays.copyOfRange(file, line, space));
            System.arraycopy(token, 0, bytes, used, token.length);
            used += token.length;
            line = end + 1;
        }
        starts[tokens] = used;
        return new O200kBase(Arrays.copyOf(bytes, used), Arrays.copyOf(starts, tokens + 1));
    }

    int count(String text) {
        int tokens = 0;
        Matcher pieces = PIECES.matcher(text);
        while (pieces.find()) {
            byte[] piece = text.substring(pieces.start(), pieces.end()).getBytes(StandardCharsets.UTF_8);
            tokens += rank(piece, 0, piece.length) != NONE ? 1 : merge(piece);
        }
        return tokens;
    }

    /**
     * Byte-pair merging, counting the tokens left: the adjacent pair whose joined bytes have the lowest rank (the
     * leftmost of equals) is joined, until no joined pair is a token. A heap of pairs keeps a long piece (a
     * run of letters thousands long) from costing its length squared; a pair whose segments changed since it
     * was queued is skipped when it comes out.
     */
    private int merge(byte[] piece) {
        int n = piece.length;
        int[] next = new int[n];      // where the segment starting at i ends (the next one's start)
        int[] previous = new int[n];
        int[] pairRank = new int[n];  // rank of the segment at i joined to the one after it; NONE if not a token
        boolean[] gone = new boolean[n];
        LongHeap heap = new LongHeap(n);
        for (int i = 0; i < n; i++) {
            next[i] = i + 1;
            previous[i] = i - 1;
        }
        for (int i = 0; i + 1 < n; i++) queue(heap, piece, next, pairRank, i);
        int segments = n;
        while (!heap.isEmpty()) {
            long top = heap.pop();
            int i = (int) top, rank = (int) (top >>> 32);
            if (gone[i] || pairRank[i] != rank) continue;
            int joined = next[i];
            gone[joined] = true;
            next[i] = next[joined];
            if (next[i] < n) previous[next[i]] = i;
            segments--;
            queue(heap, piece, next, pairRank, i);
            if (previous[i] >= 0) queue(heap, piece, next, pairRank, previous[i]);
        }
        return segments;
    }

    private void queue(LongHeap heap, byte[] piece, int[] next, int[] pairRank, int i) {
        int end = next[i] < piece.length ? next[next[i]] : NONE;
        pairRank[i] = end == NONE ? NONE : rank(piece, i, end);
        if (pairRank[i] != NONE) heap.push(((long) pairRank[i] << 32) | i);
    }

    private int rank(byte[] piece, int from, int to) {
        int mask = slots.length - 1;
        for (int slot = hash(piece, from, to) & mask; slots[slot] != 0; slot = (slot + 1) & mask) {
            int rank = slots[slot] - 1;
            if (Arrays.equals(bytes, starts[rank], starts[rank + 1], piece, from, to)) return rank;
        }
        return NONE;
    }

    private static int hash(byte[] data, int from, int to) {
        int h = 0x811c9dc5; // FNV-1a
        for (int i = from; i < to; i++) h = (h ^ (data[i] & 0xff)) * 0x01000193;
        return h ^ (h >>> 16);
    }

    /** A binary min-heap of longs, without boxing. */
    private static final class LongHeap {
        private long[] items;
        private int size;

        LongHeap(int capacity) {
            items = new long[Math.max(capacity, 4)];
        }

        boolean isEmpty() {
            return size == 0;
        }

        void push(long item) {
            if (size == items.length) items = Arrays.copyOf(items, size * 2);
            int at = size++;
            while (at > 0 && items[(at - 1) / 2] > item) {
                items[at] = items[(at - 1) / 2];
                at = (at - 1) / 2;
            }
            items[at] = item;
        }

        long pop() {
            long top = items[0], last = items[--size];
            int at = 0;
            while (2 * at + 1 < size) {
                int child = 2 * at + 1;
                if (child + 1 < size && items[child + 1] < items[child]) child++;
                if (items[child] >= last) break;
                items[at] = items[child];
                at = child;
            }
            items[at] = last;
            return top;
        }
    }
}
