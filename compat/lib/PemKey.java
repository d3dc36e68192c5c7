import java.io.FileInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.util.Base64;

/**
 * Writes a PKCS#12 entry's private key as PEM (PKCS#8, BEGIN PRIVATE KEY), which keytool cannot export:
 * {@code java PemKey.java <store.p12> <password> <alias> <key.pem>}. Used by certificate.mjs when the machine
 * has no openssl.
 */
public class PemKey {
    public static void main(String[] args) throws Exception {
        char[] password = args[1].toCharArray();
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (FileInputStream in = new FileInputStream(args[0])) {
            store.load(in, password);
        }
        PrivateKey key = (PrivateKey) store.getKey(args[2], password);
        String body = Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(key.getEncoded());
        Files.writeString(Path.of(args[3]), "-----BEGIN PRIVATE KEY-----\n" + body + "\n-----END PRIVATE KEY-----\n");
    }
}
