/**
 * The node's TLS certificate for its peer port (docs/p2p.md "TLS"), as the
 * reference names peers: a self-signed certificate whose SHA-256
 * fingerprint (of its DER bytes, unpadded base64url, 43 characters) is the
 * node's identity among peers, `FINGERPRINT@HOST:PORT`. Created on the
 * first start with TLS (@peculiar/x509 over node's WebCrypto: an ECDSA
 * P-256 key, valid for 20 years) in `dataDir/<network>/p2p-tls/`
 * (`certificate.pem`, `key.pem`; 0600, folder 0700) and kept, so the
 * identity peers know stays.
 * @module
 */
import { createHash, webcrypto, X509Certificate } from "node:crypto";
import { join } from "node:path";
import { readFileIfExists, writeFileAtomic } from "../../store/atomicFile.ts";
import { makePrivateFile } from "../../store/privateFiles.ts";

export type PeerCertificate = {
  readonly certificatePem: string;
  readonly keyPem: string;
  /** SHA-256 of the certificate's DER bytes, unpadded base64url. */
  readonly fingerprint: string;
};

/** The fingerprint of a certificate's DER bytes. */
export function certificateFingerprint(der: Uint8Array): string {
  return createHash("sha256").update(der).digest("base64url");
}

function pem(label: string, der: ArrayBuffer): string {
  const b64 = Buffer.from(der).toString("base64");
  const lines = b64.match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join("\n")}\n-----END ${label}-----\n`;
}

/**
 * @peculiar/x509, loaded when a certificate is made (a node without TLS never
 * loads it): its dependency injection (tsyringe) needs the Reflect metadata
 * polyfill installed first.
 */
async function x509Module() {
  await import("reflect-metadata");
  return import("@peculiar/x509");
}

/** A new self-signed certificate and its private key. */
export async function newPeerCertificate(): Promise<PeerCertificate> {
  const x509 = await x509Module();
  const crypto = webcrypto;
  const algorithm = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" };
  const keys = await crypto.subtle.generateKey(algorithm, true, ["sign", "verify"]);
  const now = Date.now();
  const cert = await x509.X509CertificateGenerator.createSelfSigned(
    {
      serialNumber: Buffer.from(crypto.getRandomValues(new Uint8Array(16)))
        .toString("hex")
        .replace(/^[89a-f]/, "1"),
      name: "CN=weft-node",
      notBefore: new Date(now - 60_000),
      notAfter: new Date(now + 20 * 365 * 86_400_000),
      signingAlgorithm: algorithm,
      keys,
      extensions: [new x509.BasicConstraintsExtension(false, undefined, true)],
    },
    crypto,
  );
  const der = new Uint8Array(cert.rawData);
  const key = await crypto.subtle.exportKey("pkcs8", keys.privateKey);
  return {
    certificatePem: pem("CERTIFICATE", cert.rawData),
    keyPem: pem("PRIVATE KEY", key),
    fingerprint: certificateFingerprint(der),
  };
}

/**
 * Reads the certificate in `dir`, creating it when absent.
 * @throws {Error} when the files are there but do not hold a certificate and its key.
 */
export async function loadOrCreatePeerCertificate(dir: string): Promise<PeerCertificate> {
  const certPath = join(dir, "certificate.pem");
  const keyPath = join(dir, "key.pem");
  const certificatePem = readFileIfExists(certPath);
  const keyPem = readFileIfExists(keyPath);
  if (certificatePem !== undefined && keyPem !== undefined) {
    makePrivateFile(certPath);
    makePrivateFile(keyPath);
    const cert = new X509Certificate(certificatePem);
    return { certificatePem, keyPem, fingerprint: certificateFingerprint(cert.raw) };
  }
  const created = await newPeerCertificate();
  // The key first: a certificate without its key would be read as a pair next time.
  writeFileAtomic(keyPath, created.keyPem);
  writeFileAtomic(certPath, created.certificatePem);
  return created;
}
