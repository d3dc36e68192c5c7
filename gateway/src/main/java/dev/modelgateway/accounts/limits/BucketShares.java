package dev.modelgateway.accounts.limits;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * What this instance knows of the shared buckets in Redis: the levels Redis last reported, and what this
 * instance has taken or given back since and not yet written ("owed"). Far from its limits a request is
 * admitted on that knowledge alone and its take is written by the next flush; near them, or without a recent
 * report, it waits for Redis, which decides exactly. Two rules keep the shared limit exact although other
 * instances' takes show up here only with Redis's next report: local admissions stop at a floor (a quarter
 * of the minute's allowance, and at least {@link #HEADROOM_REQUESTS} requests of this size), and between two
 * reports an instance takes locally at most a tenth of the room above the floor. So the takes no report has
 * shown yet stay far below the floor unless many instances burst on one key at once.
 */
final class BucketShares {

    /** A report older than this is not trusted for a local admission. */
    static final long FRESH_MS = 1000;
    static final int HEADROOM_REQUESTS = 50;
    private static final double HEADROOM_SHARE = 0.25;
    private static final double LOCAL_SHARE = 0.1;

    /** What a write carries to one scope's bucket: requests taken and tokens taken (negative: given back). */
    record Owed(RateScope scope, long requests, long tokens) {
        boolean none() {
            return requests == 0 && tokens == 0;
        }
    }

    private static final class Bucket {
        RateScope scope;
        double requests;
        double tokens;
        boolean reported;
        long reportedAtMs;
        long redisMs;
        long owedRequests;
        long owedTokens;
        /** Written, and not yet in a report. */
        long sentRequests;
        long sentTokens;
        /** Taken on local admissions since the last report. */
        long localRequests;
        long localTokens;

        boolean fresh(long nowMs) {
            return reported && nowMs - reportedAtMs <= FRESH_MS;
        }

        double requestsNow(long nowMs) {
            return RateLimits.refill(requests, scope.limits().rpm(), nowMs - reportedAtMs) - owedRequests - sentRequests;
        }

        double tokensNow(long nowMs) {
            return RateLimits.refill(tokens, scope.limits().tpm(), nowMs - reportedAtMs) - owedTokens - sentTokens;
        }
    }

    /** One holder's (a key's or a team's) buckets by {@link RateScope#bucket()}; its lock guards them. */
    private static final class Key {
        final Map<String, Bucket> buckets = new HashMap<>();

        Bucket bucket(RateScope scope) {
            Bucket b = buckets.computeIfAbsent(scope.bucket(), n -> new Bucket());
            b.scope = scope;
            return b;
        }
    }

    private final ConcurrentHashMap<String, Key> keys = new ConcurrentHashMap<>();

    /**
     * Takes one request and {@code estimatedTokens} from every scope on local knowledge if each has room to
     * spare; the decisions, or null when Redis must decide.
     */
    List<RateDecision> tryTake(List<RateScope> scopes, long estimatedTokens, long nowMs) {
        return tryTake(scopes, 0, new Bucket[scopes.size()], estimatedTokens, nowMs);
    }

    /**
     * Under the lock of every holder the scopes belong to (the key's, then its team's: always in that order, and a
     * team is never a key, so two admissions cannot deadlock), takes from every bucket or from none.
     */
    private List<RateDecision> tryTake(List<RateScope> scopes, int from, Bucket[] buckets, long estimatedTokens, long nowMs) {
        if (from == scopes.size()) return take(buckets, estimatedTokens, nowMs);
        String holder = scopes.get(from).keyId();
        return withKey(holder, key -> {
            int next = from;
            while (next < scopes.size() && scopes.get(next).keyId().equals(holder)) {
                Bucket b = key.bucket(scopes.get(next));
                if (!b.fresh(nowMs) || !roomToSpare(b, estimatedTokens, nowMs)) return null;
                buckets[next++] = b;
            }
            return tryTake(scopes, next, buckets, estimatedTokens, nowMs);
        });
    }

    private static List<RateDecision> take(Bucket[] buckets, long estimatedTokens, long nowMs) {
        List<RateDecision> decisions = new ArrayList<>(buckets.length);
        for (Bucket b : buckets) {
            RateLimits l = b.scope.limits();
            if (l.rpm() > 0) {
                b.owedRequests++;
                b.localRequests++;
            }
            if (l.tpm() > 0) {
                b.owedTokens += estimatedTokens;
                b.localTokens += estimatedTokens;
            }
            decisions.add(new RateDecision(true, l, b.requestsNow(nowMs), b.tokensNow(nowMs), 0));
        }
        return decisions;
    }

    /** Tokens to write later (positive: taken, negative: given back). */
    void owe(RateScope scope, long tokens) {
        if (tokens == 0 || scope.limits().tpm() <= 0) return;
        withKey(scope.keyId(), key -> key.bucket(scope).owedTokens += tokens);
    }

    /** Moves what one bucket owes to "sent"; the caller writes it and then calls {@link #reported} or {@link #failed}. */
    Owed send(RateScope scope) {
        return withKey(scope.keyId(), key -> send(key.bucket(scope)));
    }

    /** Everything owed, moved to "sent"; forgets buckets with nothing owed and no recent report. */
    List<Owed> sendAll(long nowMs) {
        List<Owed> all = new ArrayList<>();
        keys.forEach((id, key) -> {
            synchronized (key) {
                key.buckets.values().forEach(b -> {
                    Owed o = send(b);
                    if (!o.none()) all.add(o);
                });
                key.buckets.values().removeIf(b -> b.owedRequests == 0 && b.owedTokens == 0 && b.sentRequests == 0
                        && b.sentTokens == 0 && !b.fresh(nowMs));
                if (key.buckets.isEmpty()) keys.remove(id, key);
            }
        });
        return all;
    }

    /** Redis wrote {@code sent} and reported the levels after it, at {@code redisMs} on its clock. */
    void reported(Owed sent, double requests, double tokens, long redisMs, long nowMs) {
        withKey(sent.scope().keyId(), key -> {
            Bucket b = key.bucket(sent.scope());
            b.sentRequests -= sent.requests();
            b.sentTokens -= sent.tokens();
            // Pipelined answers from different event loops may arrive out of order: keep the newest.
            if (!b.reported || redisMs >= b.redisMs) {
                b.reported = true;
                b.requests = requests;
                b.tokens = tokens;
                b.redisMs = redisMs;
                b.reportedAtMs = nowMs;
                b.localRequests = 0;
                b.localTokens = 0;
            }
            return null;
        });
    }

    /** The write failed: what it carried is owed again. */
    void failed(Owed sent) {
        withKey(sent.scope().keyId(), key -> {
            Bucket b = key.bucket(sent.scope());
            b.sentRequests -= sent.requests();
            b.sentTokens -= sent.tokens();
            b.owedRequests += sent.requests();
            b.owedTokens += sent.tokens();
            return null;
        });
    }

    /** Runs {@code work} under the key's lock, on the key {@link #sendAll} has not just forgotten. */
    private <T> T withKey(String keyId, Function<Key, T> work) {
        while (true) {
            Key key = keys.computeIfAbsent(keyId, id -> new Key());
            synchronized (key) {
                if (keys.get(keyId) == key) return work.apply(key);
            }
        }
    }

    private static Owed send(Bucket b) {
        Owed o = new Owed(b.scope, b.owedRequests, b.owedTokens);
        b.sentRequests += b.owedRequests;
        b.sentTokens += b.owedTokens;
        b.owedRequests = 0;
        b.owedTokens = 0;
        return o;
    }

    private static boolean roomToSpare(Bucket b, long estimatedTokens, long nowMs) {
        RateLimits l = b.scope.limits();
        if (l.rpm() > 0) {
            double floor = Math.max(l.rpm() * HEADROOM_SHARE, HEADROOM_REQUESTS);
            if (b.requestsNow(nowMs) - 1 < floor || b.localRequests + 1 > (b.requests - floor) * LOCAL_SHARE) return false;
        }
        if (l.tpm() > 0) {
            double floor = Math.max(l.tpm() * HEADROOM_SHARE, (double) HEADROOM_REQUESTS * estimatedTokens);
            return b.tokensNow(nowMs) - estimatedTokens >= floor
                    && b.localTokens + estimatedTokens <= (b.tokens - floor) * LOCAL_SHARE;
        }
        return true;
    }
}
