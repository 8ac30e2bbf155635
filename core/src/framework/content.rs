//! MCP content blocks and their annotations, as the 2025-11-25 schema defines them.

use serde::Serialize;
use serde_json::Value;

/// Who a content block is meant for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// The person using the client.
    User,
    /// The model reading the result.
    Assistant,
}

/// Optional hints on a content block: audience, priority (0 to 1) and last modification time.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Annotations {
    /// Intended readers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub audience: Option<Vec<Role>>,
    /// Importance from 0 (optional) to 1 (required).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub priority: Option<f64>,
    /// ISO 8601 timestamp of the last change to the underlying data.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_modified: Option<String>,
}

impl Annotations {
    /// Annotations for the given audience.
    pub fn for_audience(audience: &[Role]) -> Self {
        Annotations {
            audience: Some(audience.to_vec()),
            ..Default::default()
        }
    }

    /// Sets the priority, clamped to the 0..=1 range the specification requires; NaN is dropped.
    pub fn with_priority(mut self, priority: f64) -> Self {
        self.priority = (!priority.is_nan()).then(|| priority.clamp(0.0, 1.0));
        self
    }

    /// Sets the ISO 8601 last-modified time.
    pub fn with_last_modified(mut self, timestamp: impl Into<String>) -> Self {
        self.last_modified = Some(timestamp.into());
        self
    }
}

/// The body of an embedded resource: text or base64 blob.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum ResourceBody {
    /// UTF-8 text.
    Text {
        /// The text.
        text: String,
    },
    /// Binary data, base64-encoded.
    Blob {
        /// The base64 data.
        blob: String,
    },
}

/// The resource inside an `EmbeddedResource` content block.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EmbeddedResource {
    /// The resource URI.
    pub uri: String,
    /// MIME type of the body.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Text or blob.
    #[serde(flatten)]
    pub body: ResourceBody,
}

/// One content block of a tool result.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Content {
    /// Plain text.
    Text {
        /// The text.
        text: String,
        /// Optional hints.
        #[serde(skip_serializing_if = "Option::is_none")]
        annotations: Option<Annotations>,
    },
    /// An image, base64-encoded.
    Image {
        /// Base64 data.
        data: String,
        /// MIME type, e.g. `image/png`.
        #[serde(rename = "mimeType")]
        mime_type: String,
        /// Optional hints.
        #[serde(skip_serializing_if = "Option::is_none")]
        annotations: Option<Annotations>,
    },
    /// Audio, base64-encoded.
    Audio {
        /// Base64 data.
        data: String,
        /// MIME type, e.g. `audio/wav`.
        #[serde(rename = "mimeType")]
        mime_type: String,
        /// Optional hints.
        #[serde(skip_serializing_if = "Option::is_none")]
        annotations: Option<Annotations>,
    },
    /// A link to a resource the client may read later.
    ResourceLink {
        /// The resource URI.
        uri: String,
        /// Programmatic name.
        name: String,
        /// Human-readable title.
        #[serde(skip_serializing_if = "Option::is_none")]
        title: Option<String>,
        /// What the resource holds.
        #[serde(skip_serializing_if = "Option::is_none")]
        description: Option<String>,
        /// MIME type of the resource.
        #[serde(rename = "mimeType", skip_serializing_if = "Option::is_none")]
        mime_type: Option<String>,
        /// Size in bytes, when known.
        #[serde(skip_serializing_if = "Option::is_none")]
        size: Option<u64>,
        /// Optional hints.
        #[serde(skip_serializing_if = "Option::is_none")]
        annotations: Option<Annotations>,
    },
    /// A resource embedded in the result.
    Resource {
        /// The resource itself.
        resource: EmbeddedResource,
        /// Optional hints.
        #[serde(skip_serializing_if = "Option::is_none")]
        annotations: Option<Annotations>,
    },
}

impl Content {
    /// The text of a text block; `None` for any other kind.
    pub fn text_of(&self) -> Option<&str> {
        match self {
            Content::Text { text, .. } => Some(text),
            _ => None,
        }
    }

    /// A text block without annotations.
    pub fn text(text: impl Into<String>) -> Self {
        Content::Text {
            text: text.into(),
            annotations: None,
        }
    }

    /// A base64 image block from raw bytes.
    pub fn image(bytes: &[u8], mime_type: impl Into<String>) -> Self {
        Content::Image {
            data: base64_encode(bytes),
            mime_type: mime_type.into(),
            annotations: None,
        }
    }

    /// A base64 audio block from raw bytes.
    pub fn audio(bytes: &[u8], mime_type: impl Into<String>) -> Self {
        Content::Audio {
            data: base64_encode(bytes),
            mime_type: mime_type.into(),
            annotations: None,
        }
    }

    /// A resource link with a URI and a name.
    pub fn resource_link(uri: impl Into<String>, name: impl Into<String>) -> Self {
        Content::ResourceLink {
            uri: uri.into(),
            name: name.into(),
            title: None,
            description: None,
            mime_type: None,
            size: None,
            annotations: None,
        }
    }

    /// An embedded text resource.
    pub fn embedded_text(uri: impl Into<String>, mime_type: &str, text: impl Into<String>) -> Self {
        Content::Resource {
            resource: EmbeddedResource {
                uri: uri.into(),
                mime_type: Some(mime_type.to_string()),
                body: ResourceBody::Text { text: text.into() },
            },
            annotations: None,
        }
    }

    /// An embedded binary resource.
    pub fn embedded_blob(uri: impl Into<String>, mime_type: &str, bytes: &[u8]) -> Self {
        Content::Resource {
            resource: EmbeddedResource {
                uri: uri.into(),
                mime_type: Some(mime_type.to_string()),
                body: ResourceBody::Blob {
                    blob: base64_encode(bytes),
                },
            },
            annotations: None,
        }
    }

    /// Replaces this block's annotations.
    pub fn annotated(mut self, value: Annotations) -> Self {
        match &mut self {
            Content::Text { annotations, .. }
            | Content::Image { annotations, .. }
            | Content::Audio { annotations, .. }
            | Content::ResourceLink { annotations, .. }
            | Content::Resource { annotations, .. } => *annotations = Some(value),
        }
        self
    }

    /// The block as JSON.
    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).expect("content blocks always serialize")
    }
}

fn base64_encode(bytes: &[u8]) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_content_type_serializes_to_the_spec_shape() {
        assert_eq!(
            Content::text("hi").to_value(),
            json!({"type": "text", "text": "hi"})
        );
        assert_eq!(
            Content::image(b"\x89PNG", "image/png").to_value(),
            json!({"type": "image", "data": "iVBORw==", "mimeType": "image/png"})
        );
        assert_eq!(
            Content::audio(b"RIFF", "audio/wav").to_value(),
            json!({"type": "audio", "data": "UklGRg==", "mimeType": "audio/wav"})
        );
        assert_eq!(
            Content::resource_link("entrez-dataset://x/schema", "x").to_value(),
            json!({"type": "resource_link", "uri": "entrez-dataset://x/schema", "name": "x"})
        );
        assert_eq!(
            Content::embedded_text("file:///a.txt", "text/plain", "abc").to_value(),
            json!({"type": "resource", "resource": {"uri": "file:///a.txt", "mimeType": "text/plain", "text": "abc"}})
        );
        assert_eq!(
            Content::embedded_blob("file:///a.bin", "application/octet-stream", b"ab").to_value(),
            json!({"type": "resource", "resource": {"uri": "file:///a.bin", "mimeType": "application/octet-stream", "blob": "YWI="}})
        );
    }

    #[test]
    fn annotations_clamp_priority_and_name_fields_in_camel_case() {
        let block = Content::text("x").annotated(
            Annotations::for_audience(&[Role::User, Role::Assistant])
                .with_priority(1.7)
                .with_last_modified("2025-01-12T15:00:58Z"),
        );
        assert_eq!(
            block.to_value()["annotations"],
            json!({"audience": ["user", "assistant"], "priority": 1.0, "lastModified": "2025-01-12T15:00:58Z"})
        );
        assert_eq!(
            Annotations::default().with_priority(f64::NAN).priority,
            None
        );
        assert_eq!(
            Annotations::default().with_priority(-3.0).priority,
            Some(0.0)
        );
    }
}
