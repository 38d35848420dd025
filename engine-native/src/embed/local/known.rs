//! [`KnownModel`]: what the hub folders of the supported models leave unsaid (an older
//! sentence-transformers saved no prompts, some folders lack a pooling or `modules.json`), so
//! that a model named in `embeddings.model` gets the pooling and prefixes it was trained with.

use crate::embed::fingerprint::Pooling;

/// The settings of one well-known model, used where its folder does not say.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KnownModel {
    /// The hub name, `ORG/NAME`.
    pub name: &'static str,
    /// How token vectors are pooled.
    pub pooling: Pooling,
    /// Whether the model's pipeline ends in L2 normalisation.
    pub normalize: bool,
    /// Put before every query.
    pub query: &'static str,
    /// Put before every document.
    pub document: &'static str,
}

/// The models this server knows by name.
pub const KNOWN_MODELS: [KnownModel; 6] = [
    KnownModel {
        name: "sentence-transformers/all-MiniLM-L6-v2",
        pooling: Pooling::Mean,
        normalize: true,
        query: "",
        document: "",
    },
    KnownModel {
        name: "intfloat/multilingual-e5-small",
        pooling: Pooling::Mean,
        normalize: true,
        query: "query: ",
        document: "passage: ",
    },
    KnownModel {
        name: "intfloat/multilingual-e5-base",
        pooling: Pooling::Mean,
        normalize: true,
        query: "query: ",
        document: "passage: ",
    },
    KnownModel {
        name: "intfloat/multilingual-e5-large",
        pooling: Pooling::Mean,
        normalize: true,
        query: "query: ",
        document: "passage: ",
    },
    KnownModel {
        name: "BAAI/bge-small-en-v1.5",
        pooling: Pooling::Cls,
        normalize: true,
        query: "Represent this sentence for searching relevant passages: ",
        document: "",
    },
    KnownModel {
        name: "sentence-transformers/paraphrase-multilingual-MiniLM-L12-v2",
        pooling: Pooling::Mean,
        normalize: false,
        query: "",
        document: "",
    },
];

/// The known model called `name`: its hub name or the part after the `/`, in any case (a
/// local folder is often named by the latter).
pub fn known_model(name: &str) -> Option<&'static KnownModel> {
    let short = |full: &str| full.rsplit('/').next().unwrap_or(full).to_owned();
    KNOWN_MODELS.iter().find(|model| {
        model.name.eq_ignore_ascii_case(name)
            || (!name.contains('/') && short(model.name).eq_ignore_ascii_case(name))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_model_is_found_by_its_hub_name_or_its_short_name_only() {
        let e5 = known_model("intfloat/multilingual-e5-small").expect("e5");
        assert_eq!((e5.query, e5.document), ("query: ", "passage: "));
        assert_eq!(known_model("Multilingual-E5-Small"), Some(e5));
        assert_eq!(
            known_model("BAAI/bge-small-en-v1.5").map(|m| m.pooling),
            Some(Pooling::Cls)
        );
        assert_eq!(known_model("someone/multilingual-e5-small"), None);
        assert_eq!(known_model("intfloat/multilingual-e5-large-instruct"), None);
    }
}
