package dev.modelgateway.e2e;

import dev.modelgateway.config.ServerTls;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.core.net.PemTrustOptions;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.concurrent.TimeUnit;

/**
 * A self-signed certificate made at test time with the JDK's own {@code keytool} (no key material is committed),
 * written out as the PEM files the gateway reads, and a client trust store holding only it.
 *
 * @param certPem the certificate (PEM)
 * @param keyPem  its private key (PKCS#8 PEM)
 */
public record TestCert(Path certPem, Path keyPem, X509Certificate cert) {
    private static final char[] PASSWORD = "test-only".toCharArray();

    /** A certificate for {@code host} and 127.0.0.1, valid for two days. */
    public static TestCert selfSigned(String host) {
        return generate(host, "dns:" + host + ",ip:127.0.0.1");
    }

    /** A certificate for the name {@code host} only: a client that checked it against an address would refuse it. */
    public static TestCert forNameOnly(String host) {
        return generate(host, "dns:" + host);
    }

    private static TestCert generate(String host, String subjectAltNames) {
        try {
            Path dir = Files.createTempDirectory("test-cert");
            Path store = dir.resolve("cert.p12");
            Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                    "-genkeypair", "-alias", "server", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2",
                    "-dname", "CN=" + host, "-ext", "SAN=" + subjectAltNames,
                    "-storetype", "PKCS12", "-keystore", store.toString(),
                    "-storepass", new String(PASSWORD), "-keypass", new String(PASSWORD))
                    .redirectErrorStream(true).start();
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) throw new IllegalStateException("keytool: " + output);
            KeyStore ks = KeyStore.getInstance("PKCS12");
            try (InputStream in = Files.newInputStream(store)) {
                ks.load(in, PASSWORD);
            }
            PrivateKey key = (PrivateKey) ks.getKey("server", PASSWORD);
            Certificate cert = ks.getCertificate("server");
            Path certPem = dir.resolve("cert.pem");
            Path keyPem = dir.resolve("key.pem");
            Files.writeString(certPem, pem("CERTIFICATE", cert.getEncoded()));
            Files.writeString(keyPem, pem("PRIVATE KEY", key.getEncoded()));
            return new TestCert(certPem, keyPem, (X509Certificate) cert);
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(der) + "\n-----END " + type + "-----\n";
    }

    /** The gateway's TLS settings for this certificate. */
    public ServerTls serverTls() {
        return new ServerTls(certPem, keyPem);
    }

    /** For a Vert.x test server serving this certificate. */
    public PemKeyCertOptions keyCertOptions() {
        return new PemKeyCertOptions().setCertPath(certPem.toString()).setKeyPath(keyPem.toString());
    }

    /** For a Vert.x client that trusts this certificate only. */
    public PemTrustOptions trustOptions() {
        return new PemTrustOptions().addCertPath(certPem.toString());
    }

    /** A JDK trust manager that trusts this certificate only. */
    public X509TrustManager trustManager() {
        try {
            KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
            trust.load(null, null);
            trust.setCertificateEntry("test", cert);
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trust);
            return (X509TrustManager) tmf.getTrustManagers()[0];
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A JDK TLS context that trusts this certificate only. */
    public SSLContext clientContext() {
        try {
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(null, new TrustManager[]{trustManager()}, null);
            return ctx;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
