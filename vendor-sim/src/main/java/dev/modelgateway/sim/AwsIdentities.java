package dev.modelgateway.sim;

import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The AWS credentials the simulator knows: long-term keys a test registers, and the short-lived ones its STS,
 * container-credentials and instance-metadata doubles issue. {@link SigV4Check} looks a request's access key id up
 * here, as AWS does, so every AWS double of the simulator accepts exactly the credentials it knows. One clock for
 * the issued expirations and the expiry checks, which a test that advances its own clock sets here
 * ({@link #clock(InstantSource)}); and the one a signature's date must be near, the signer's: AWS's SDKs sign with the
 * system clock, a gateway under test with the clock the test gives it ({@link #signatureClock(InstantSource)}).
 */
public final class AwsIdentities {
    /**
     * One identity.
     *
     * @param sessionToken null for long-term keys; otherwise the request must carry it as {@code x-amz-security-token}
     * @param expiresAt    null for long-term keys
     * @param arn          who the identity is (an IAM user, or an assumed-role session), as STS's errors name it
     */
    public record Identity(String accessKeyId, String secretAccessKey, String sessionToken, Instant expiresAt, String arn) {
        @Override
        public String toString() {
            return "Identity[" + accessKeyId + ", " + arn + (expiresAt == null ? "" : ", expires " + expiresAt) + "]";
        }
    }

    private static final SecureRandom RANDOM = new SecureRandom();
    private final Map<String, Identity> byAccessKeyId = new ConcurrentHashMap<>();
    private final AtomicLong issued = new AtomicLong();
    private volatile InstantSource clock = InstantSource.system();
    private volatile InstantSource signatureClock = InstantSource.system();

    /** Registers long-term keys (an IAM user's), e.g. the static keys a test configures the gateway with. */
    public Identity registerLongTerm(String accessKeyId, String secretAccessKey, String arn) {
        Identity id = new Identity(accessKeyId, secretAccessKey, null, null, arn);
        byAccessKeyId.put(accessKeyId, id);
        return id;
    }

    /** Registers an identity as given (session credentials a test made up, with their expiry). */
    public void register(Identity identity) {
        byAccessKeyId.put(identity.accessKeyId(), identity);
    }

    public Optional<Identity> find(String accessKeyId) {
        return accessKeyId == null ? Optional.empty() : Optional.ofNullable(byAccessKeyId.get(accessKeyId));
    }

    /** New temporary credentials for {@code arn}, valid for {@code lifetime} from now (STS's ASIA… key ids; whole seconds, as STS's). */
    public Identity issue(String arn, Duration lifetime) {
        String keyId = "ASIASIM" + String.format("%013d", issued.incrementAndGet());
        Identity id = new Identity(keyId, random(30), random(96), clock.instant().truncatedTo(ChronoUnit.SECONDS).plus(lifetime), arn);
        byAccessKeyId.put(keyId, id);
        return id;
    }

    public InstantSource clock() {
        return clock;
    }

    /** The clock of the issued expirations and of {@link SigV4Check}'s expiry check. */
    public void clock(InstantSource clock) {
        this.clock = clock;
    }

    public InstantSource signatureClock() {
        return signatureClock;
    }

    /** What {@link SigV4Check} compares a request's {@code X-Amz-Date} with (5 minutes either way); the system clock by default. */
    public void signatureClock(InstantSource clock) {
        this.signatureClock = clock;
    }

    private static String random(int bytes) {
        byte[] b = new byte[bytes];
        RANDOM.nextBytes(b);
        return Base64.getEncoder().withoutPadding().encodeToString(b).replace('+', 'A');
    }
}
