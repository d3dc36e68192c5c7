package dev.modelgateway.sim;

/** The simulator's tokenizer: one token per four characters, rounded up. */
final class Tokens {
    private Tokens() {
    }

    static int ofChars(long chars) {
        return (int) ((chars + 3) / 4);
    }

    static int of(String s) {
        return s == null ? 0 : ofChars(s.length());
    }
}
