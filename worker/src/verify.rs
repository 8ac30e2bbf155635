//! Access-token signatures checked with the Workers runtime's WebCrypto (`crypto.subtle`),
//! so the Worker carries no cryptography of its own.
//!
//! The key is imported from its JWK as published (less the members WebCrypto refuses to
//! see disagree with the import: `alg`, `use`, `key_ops`, `ext`), then `verify` runs with
//! RSASSA-PKCS1-v1_5 / SHA-256 (RS256) or ECDSA P-256 / SHA-256 (ES256, whose r ‖ s form
//! WebCrypto takes as it is).

use entrez_mcp_core::auth::jwks::Jwk;
use entrez_mcp_core::auth::jws::Alg;
use entrez_mcp_core::auth::SignatureVerifier;
use entrez_mcp_core::platform::BoxFuture;
use worker::js_sys::{self, Array, Function, Object, Promise, Reflect, Uint8Array};
use worker::wasm_bindgen::{JsCast, JsValue};
use worker::wasm_bindgen_futures::JsFuture;

/// RS256 and ES256 through `crypto.subtle`.
pub struct WebCryptoVerifier;

fn object(pairs: &[(&str, &str)]) -> Result<JsValue, String> {
    let o = Object::new();
    for (k, v) in pairs {
        Reflect::set(&o, &JsValue::from_str(k), &JsValue::from_str(v))
            .map_err(|_| "cannot build an algorithm object")?;
    }
    Ok(o.into())
}

fn method(target: &JsValue, name: &str) -> Result<Function, String> {
    Reflect::get(target, &JsValue::from_str(name))
        .ok()
        .and_then(|f| f.dyn_into::<Function>().ok())
        .ok_or_else(|| format!("crypto.subtle.{name} is not available"))
}

async fn call(target: &JsValue, name: &str, args: &[JsValue]) -> Result<JsValue, String> {
    let list = Array::new();
    for a in args {
        list.push(a);
    }
    let promise: Promise = method(target, name)?
        .apply(target, &list)
        .map_err(|_| format!("crypto.subtle.{name} refused its arguments"))?
        .dyn_into()
        .map_err(|_| format!("crypto.subtle.{name} returned no promise"))?;
    JsFuture::from(promise)
        .await
        .map_err(|_| format!("crypto.subtle.{name} failed"))
}

async fn verify(alg: Alg, key: &Jwk, message: &[u8], signature: &[u8]) -> Result<bool, String> {
    let crypto = Reflect::get(&js_sys::global(), &JsValue::from_str("crypto"))
        .map_err(|_| "no crypto global")?;
    let subtle =
        Reflect::get(&crypto, &JsValue::from_str("subtle")).map_err(|_| "no crypto.subtle")?;
    let mut jwk = key.json.clone();
    if let Some(o) = jwk.as_object_mut() {
        for k in ["alg", "use", "key_ops", "ext"] {
            o.remove(k);
        }
    }
    let jwk = js_sys::JSON::parse(&jwk.to_string()).map_err(|_| "the key is not JSON")?;
    let (import, check) = match alg {
        Alg::Rs256 => (
            object(&[("name", "RSASSA-PKCS1-v1_5"), ("hash", "SHA-256")])?,
            object(&[("name", "RSASSA-PKCS1-v1_5")])?,
        ),
        Alg::Es256 => (
            object(&[("name", "ECDSA"), ("namedCurve", "P-256")])?,
            object(&[("name", "ECDSA"), ("hash", "SHA-256")])?,
        ),
    };
    let usages: JsValue = Array::of1(&JsValue::from_str("verify")).into();
    let imported = call(
        &subtle,
        "importKey",
        &[
            JsValue::from_str("jwk"),
            jwk,
            import,
            JsValue::FALSE,
            usages,
        ],
    )
    .await?;
    let ok = call(
        &subtle,
        "verify",
        &[
            check,
            imported,
            Uint8Array::from(signature).into(),
            Uint8Array::from(message).into(),
        ],
    )
    .await?;
    Ok(ok.as_bool() == Some(true))
}

impl SignatureVerifier for WebCryptoVerifier {
    fn verify<'a>(
        &'a self,
        alg: Alg,
        key: &'a Jwk,
        message: &'a [u8],
        signature: &'a [u8],
    ) -> BoxFuture<'a, Result<bool, String>> {
        Box::pin(verify(alg, key, message, signature))
    }
}
