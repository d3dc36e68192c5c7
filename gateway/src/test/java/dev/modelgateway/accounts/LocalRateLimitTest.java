package dev.modelgateway.accounts;

class LocalRateLimitTest extends RateLimitContract {
    @Override
    String redisUrl() {
        return null;
    }

    @Override
    String redisPrefix() {
        return null;
    }
}
