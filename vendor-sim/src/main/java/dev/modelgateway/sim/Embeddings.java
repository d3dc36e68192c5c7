package dev.modelgateway.sim;

/** Deterministic unit-length pseudo-embeddings seeded by the input text (same text, same vector). */
final class Embeddings {
    private Embeddings() {
    }

    static float[] vector(String text, int dims) {
        float[] v = new float[Math.max(1, dims)];
        long seed = 0x9E3779B97F4A7C15L ^ text.hashCode() * 0xBF58476D1CE4E5B9L ^ text.length();
        double norm = 0;
        for (int i = 0; i < v.length; i++) {
            seed += 0x9E3779B97F4A7C15L; // splitmix64
            long z = seed;
            z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
            z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
            z ^= z >>> 31;
            v[i] = (float) ((z >>> 11) * 0x1.0p-53 * 2 - 1);
            norm += v[i] * v[i];
        }
        float inv = (float) (1 / Math.sqrt(norm));
        for (int i = 0; i < v.length; i++) v[i] *= inv;
        return v;
    }
}
