//! Access-token signatures checked with ring (already linked for TLS).

use entrez_mcp_core::auth::jwks::{Jwk, KeyMaterial};
use entrez_mcp_core::auth::jws::Alg;
use entrez_mcp_core::auth::SignatureVerifier;
use entrez_mcp_core::platform::BoxFuture;
use ring::signature::{self, RsaPublicKeyComponents, UnparsedPublicKey};

/// RS256 with 2048-8192-bit keys and ES256 on P-256 (signature r ‖ s).
pub struct RingVerifier;

impl SignatureVerifier for RingVerifier {
    fn verify<'a>(
        &'a self,
        alg: Alg,
        key: &'a Jwk,
        message: &'a [u8],
        sig: &'a [u8],
    ) -> BoxFuture<'a, Result<bool, String>> {
        Box::pin(async move {
            Ok(match (alg, &key.material) {
                (Alg::Rs256, KeyMaterial::Rsa { modulus, exponent }) => RsaPublicKeyComponents {
                    n: modulus,
                    e: exponent,
                }
                .verify(&signature::RSA_PKCS1_2048_8192_SHA256, message, sig)
                .is_ok(),
                (Alg::Es256, KeyMaterial::P256 { x, y }) => {
                    if x.len() != 32 || y.len() != 32 {
                        return Err("the P-256 key's coordinates are not 32 bytes".into());
                    }
                    let mut point = Vec::with_capacity(65);
                    point.push(0x04);
                    point.extend_from_slice(x);
                    point.extend_from_slice(y);
                    UnparsedPublicKey::new(&signature::ECDSA_P256_SHA256_FIXED, point)
                        .verify(message, sig)
                        .is_ok()
                }
                _ => return Err(format!("a {} key cannot verify {}", key.kty, alg.name())),
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use entrez_mcp_core::auth::{jwks, jws};
    use serde_json::json;

    fn block_on<F: std::future::Future>(f: F) -> F::Output {
        tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
            .block_on(f)
    }

    /// RFC 7515 Appendix A.2: the RS256 example key and signed JWS.
    const A2_TOKEN: &str = "eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ.cC4hiUPoj9Eetdgtv3hF80EGrhuB__dzERat0XF9g2VtQgr9PJbu3XOiZj5RZmh7AAuHIm4Bh-0Qc_lF5YKt_O8W2Fp5jujGbds9uJdbF9CUAr7t1dnZcAcQjbKBYNX4BAynRFdiuB--f_nZLgrnbyTyWzO75vRK5h6xBArLIARNPvkSjtQBMHlb1L07Qe7K0GarZRmB_eSN9383LcOLn6_dO--xi12jzDwusC-eOkHWEsqtFZESc6BfI7noOPqvhJ1phCnvWh6IeYI2w9QOYEUipUTI8np6LbgGY9Fs98rqVt5AXLIhWkWywlVmtVrBp0igcN_IoypGlUPQGe77Rw";
    const A2_N: &str = "ofgWCuLjybRlzo0tZWJjNiuSfb4p4fAkd_wWJcyQoTbji9k0l8W26mPddxHmfHQp-Vaw-4qPCJrcS2mJPMEzP1Pt0Bm4d4QlL-yRT-SFd2lZS-pCgNMsD1W_YpRPEwOWvG6b32690r2jZ47soMZo9wGzjb_7OMg0LOL-bSf63kpaSHSXndS5z5rexMdbBYUsLA9e-KXBdQOS-UTo7WTBEMa2R2CapHg665xsmtdVMTBQY4uDZlxvb3qCo5ZwKh9kG4LT6_I5IhlJH7aGhyxXFvUK-DWNmoudF8NAco9_h9iaGNj8q2ethFkMLs91kzk2PAcDTW9gb54h4FRWyuXpoQ";

    /// RFC 7515 Appendix A.3: the ES256 example key and signed JWS.
    const A3_TOKEN: &str = "eyJhbGciOiJFUzI1NiJ9.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ.DtEhU3ljbEg8L38VWAfUAqOyKAM6-Xx-F4GawxaepmXFCgfTjDxw5djxLa8ISlSApmWQxfKTUJqPP3-Kg6NU1Q";

    fn key(v: serde_json::Value) -> Jwk {
        jwks::parse_jwks(json!({"keys": [v]}).to_string().as_bytes())
            .unwrap()
            .remove(0)
    }

    #[test]
    fn rfc_7515_examples_verify_and_tampering_does_not() {
        let rsa = key(json!({"kty": "RSA", "n": A2_N, "e": "AQAB"}));
        let t = jws::parse(A2_TOKEN).unwrap();
        assert_eq!(t.alg, Alg::Rs256);
        assert_eq!(
            block_on(RingVerifier.verify(t.alg, &rsa, t.signing_input.as_bytes(), &t.signature)),
            Ok(true)
        );
        let mut bad = t.signature.clone();
        bad[10] ^= 1;
        assert_eq!(
            block_on(RingVerifier.verify(t.alg, &rsa, t.signing_input.as_bytes(), &bad)),
            Ok(false)
        );
        let ec = key(json!({"kty": "EC", "crv": "P-256",
            "x": "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU",
            "y": "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"}));
        let e = jws::parse(A3_TOKEN).unwrap();
        assert_eq!(e.alg, Alg::Es256);
        assert_eq!(
            block_on(RingVerifier.verify(e.alg, &ec, e.signing_input.as_bytes(), &e.signature)),
            Ok(true)
        );
        let other = format!("{}x", e.signing_input);
        assert_eq!(
            block_on(RingVerifier.verify(e.alg, &ec, other.as_bytes(), &e.signature)),
            Ok(false)
        );
        // A key of the wrong size is an error, not a silent no.
        let short = Jwk {
            material: KeyMaterial::P256 {
                x: vec![1; 31],
                y: vec![1; 32],
            },
            ..ec
        };
        assert!(block_on(RingVerifier.verify(e.alg, &short, b"m", &e.signature)).is_err());
    }
}
