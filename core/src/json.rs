//! JSON the small way for the Worker's bundle: [`json!`](crate::json!), [`set`] and
//! [`from_str`], each building what serde_json's would, in less wasm.
//!
//! `json!` is serde_json's `json!` for the forms this crate writes: `null`, `[elements]`,
//! `{"key": value, (key_expr): value}` (members and elements themselves `null`, `[..]`,
//! `{..}` or any expression), and any serializable expression. Why it is smaller is on
//! [`member`]; [`set`] is `target["key"] = value` the same way.

use serde::Serialize;
use serde_json::{Map, Value};

/// Adds one member to an object under construction.
///
/// serde_json's macro expands each member of an object in place: the key made into a
/// `String`, `to_value(..).unwrap()`, the insert and the drop of what it replaced, some 100
/// bytes of wasm a member, for about 800 members in the Worker. Here a member is one call of
/// this function and a value one call of [`value`], each compiled once (`value` once per type);
/// a `Value` given by value is moved in ([`MovedIn`]), where serde_json's macro copies it
/// through the serializer.
#[inline(never)]
pub fn member(object: &mut Map<String, Value>, key: &str, value: Value) {
    object.insert(key.to_owned(), value);
}

/// `target[key] = value`, compiled once: in place, each such assignment repeats the lookup
/// of the key and the drop of the value it replaces.
#[inline(never)]
pub fn set(target: &mut Value, key: &str, value: Value) {
    target[key] = value;
}

/// `value` as JSON, as serde_json's `json!` makes it (and, like it, panics if `value`
/// cannot be one: a map with keys that are not strings).
pub fn value<T: Serialize + ?Sized>(value: &T) -> Value {
    serde_json::to_value(value).unwrap()
}

/// A `Value` given to [`json!`](crate::json!) is moved in as it is: serde_json's macro
/// copies it through the serializer, which for a page of records or a tool list is most of
/// what building an answer costs. (Method resolution picks this by-value impl first.)
pub trait MovedIn {
    /// The value itself.
    fn json_value(self) -> Value;
}

impl MovedIn for Value {
    #[inline]
    fn json_value(self) -> Value {
        self
    }
}

/// Anything else serializable is made into a `Value` ([`value`]).
pub trait SerializedIn {
    /// The value as JSON.
    fn json_value(&self) -> Value;
}

impl<T: Serialize + ?Sized> SerializedIn for T {
    #[inline]
    fn json_value(&self) -> Value {
        value(self)
    }
}

/// `serde_json::from_str`, read through serde_json's reader of bytes: the one the parsers and
/// the HTTP side already use, so that the bundle holds one copy of serde_json's parser rather
/// than one per reader type (a `&str` is read exactly as its bytes are).
pub fn from_str<'a, T: serde::Deserialize<'a>>(text: &'a str) -> serde_json::Result<T> {
    serde_json::from_slice(text.as_bytes())
}

/// A JSON value from JSON-like syntax, as serde_json's `json!` (see the module).
#[macro_export]
macro_rules! json {
    (null) => {
        ::serde_json::Value::Null
    };
    ([ $($elements:tt)* ]) => {
        ::serde_json::Value::Array($crate::json!(@array [] $($elements)*))
    };
    ({ $($members:tt)* }) => {{
        #[allow(unused_mut)]
        let mut object = ::serde_json::Map::new();
        $crate::json!(@object object $($members)*);
        ::serde_json::Value::Object(object)
    }};
    ($other:expr) => {{
        #[allow(unused_imports)]
        use $crate::json::{MovedIn as _, SerializedIn as _};
        ($other).json_value()
    }};

    // The elements of an array, one at a time into `[done,]`.
    (@array [$($done:expr,)*]) => {
        vec![$($done,)*]
    };
    (@array [$($done:expr,)*] null $(, $($rest:tt)*)?) => {
        $crate::json!(@array [$($done,)* $crate::json!(null),] $($($rest)*)?)
    };
    (@array [$($done:expr,)*] [$($inner:tt)*] $(, $($rest:tt)*)?) => {
        $crate::json!(@array [$($done,)* $crate::json!([$($inner)*]),] $($($rest)*)?)
    };
    (@array [$($done:expr,)*] {$($inner:tt)*} $(, $($rest:tt)*)?) => {
        $crate::json!(@array [$($done,)* $crate::json!({$($inner)*}),] $($($rest)*)?)
    };
    (@array [$($done:expr,)*] $next:expr $(, $($rest:tt)*)?) => {
        $crate::json!(@array [$($done,)* $crate::json!($next),] $($($rest)*)?)
    };

    // The members of an object, one at a time into `$object`.
    (@object $object:ident) => {};
    (@object $object:ident $key:tt : null $(, $($rest:tt)*)?) => {
        $crate::json::member(&mut $object, &$key, $crate::json!(null));
        $crate::json!(@object $object $($($rest)*)?);
    };
    (@object $object:ident $key:tt : [$($inner:tt)*] $(, $($rest:tt)*)?) => {
        $crate::json::member(&mut $object, &$key, $crate::json!([$($inner)*]));
        $crate::json!(@object $object $($($rest)*)?);
    };
    (@object $object:ident $key:tt : {$($inner:tt)*} $(, $($rest:tt)*)?) => {
        $crate::json::member(&mut $object, &$key, $crate::json!({$($inner)*}));
        $crate::json!(@object $object $($($rest)*)?);
    };
    (@object $object:ident $key:tt : $value:expr $(, $($rest:tt)*)?) => {
        $crate::json::member(&mut $object, &$key, $crate::json!($value));
        $crate::json!(@object $object $($($rest)*)?);
    };
}

#[cfg(test)]
mod tests {
    #[test]
    fn builds_what_serde_json_builds() {
        let name = String::from("aspirin");
        let cids = vec![2244u64, 1983];
        let key = "dynamic";
        let ours = crate::json!({
            "name": name,
            "cids": cids,
            "none": null,
            "flag": true,
            "nested": {"a": 1, "b": [1, "two", null, {"c": 3.5}], "empty": {}},
            "list": [],
            (key): format!("{}!", name),
            "sum": 1 + 2,
            "last": cids.len(),
        });
        let theirs = serde_json::json!({
            "name": name,
            "cids": cids,
            "none": null,
            "flag": true,
            "nested": {"a": 1, "b": [1, "two", null, {"c": 3.5}], "empty": {}},
            "list": [],
            key: format!("{}!", name),
            "sum": 1 + 2,
            "last": cids.len(),
        });
        assert_eq!(ours, theirs);
        assert_eq!(crate::json!(null), serde_json::Value::Null);
        assert_eq!(crate::json!([1, [2], {}]), serde_json::json!([1, [2], {}]));
        assert_eq!(crate::json!(cids[..1]), serde_json::json!(cids[..1]));
        assert_eq!(crate::json!({}), serde_json::json!({}));
    }
}
