//! The one place that names the YAML crate.
//!
//! `serde_yaml` is no longer maintained upstream. Everything else in `latin` goes through this module,
//! so moving to a maintained fork (`serde_yaml_ng`, `serde_norway`) is a change to the `use` line below.

pub(crate) use serde_yaml::{Error, Mapping, Value};

/// Parses a YAML document into a generic value.
pub(crate) fn parse(text: &str) -> Result<Value, Error> {
    serde_yaml::from_str(text)
}

/// Deserialises a YAML document into a typed value.
pub(crate) fn from_str<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, Error> {
    serde_yaml::from_str(text)
}

/// Converts a generic value into a typed one.
pub(crate) fn from_value<T: serde::de::DeserializeOwned>(value: Value) -> Result<T, Error> {
    serde_yaml::from_value(value)
}

/// A scalar as text, whatever YAML type it was written as (`6`, `"6"`, `true`); `None` for maps and lists.
pub(crate) fn scalar_text(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Tagged(t) => scalar_text(&t.value),
        Value::Null | Value::Sequence(_) | Value::Mapping(_) => None,
    }
}
