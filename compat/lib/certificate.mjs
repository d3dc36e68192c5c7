// A self-signed certificate for 127.0.0.1 and localhost, made at run time for the TLS cells (never committed):
// with openssl when the machine has it, else with the JDK's keytool, whose PKCS#12 key PemKey.java writes as
// PEM (the gateway reads PEM files only: docs/configuration.md, "TLS"). Clients trust it through
// NODE_EXTRA_CA_CERTS, as a deployment with a private CA would.
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const SUBJECT = 'CN=localhost';
const SAN = ['IP:127.0.0.1', 'DNS:localhost'];

function found(cmd) {
  try {
    execFileSync(cmd, ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Writes cert.pem and key.pem into `dir`; returns their paths. */
export function selfSignedCertificate(dir, javaHome, { openssl = found('openssl') } = {}) {
  const cert = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  const quiet = { stdio: ['ignore', 'ignore', 'pipe'], timeout: 60_000 };
  if (openssl) {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-keyout', key, '-out', cert,
      '-subj', `/${SUBJECT}`, '-addext', `subjectAltName=${SAN.join(',')}`], quiet);
    return { cert, key };
  }
  const bin = (tool) => (javaHome ? join(javaHome, 'bin', tool) : tool);
  const store = join(dir, 'store.p12');
  const pass = 'compat-suite';
  execFileSync(bin('keytool'), ['-genkeypair', '-alias', 'gateway', '-keyalg', 'RSA', '-keysize', '2048', '-validity', '2',
    '-dname', SUBJECT, '-ext', `san=${SAN.map((s) => s.toLowerCase()).join(',')}`,
    '-keystore', store, '-storetype', 'PKCS12', '-storepass', pass, '-keypass', pass], quiet);
  execFileSync(bin('keytool'), ['-exportcert', '-rfc', '-alias', 'gateway', '-keystore', store, '-storepass', pass, '-file', cert], quiet);
  execFileSync(bin('java'), [join(HERE, 'PemKey.java'), store, pass, 'gateway', key], quiet);
  return { cert, key };
}
