//! [`Caller`]: who is calling, as the transport's auth layer established it. Tools never see
//! tokens, only this.

use engine_core::acl::Scope;

/// The identity of one caller: produced by the transport/auth layer (stdio: trusted, every
/// scope; HTTP: from a verified bearer token), handed to [`crate::dispatch::Dispatcher::call`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Caller {
    /// The caller's identity (`"stdio"`, or a token's `sub`); bucket, audit and approval key.
    pub id: String,
    /// The scopes the caller was granted.
    pub scopes: Vec<Scope>,
    /// The one vault this caller may use (a token's `vault` claim), or `None` for all.
    pub vault_binding: Option<String>,
    /// Whether the caller presented a bearer JWT without a `vault` claim: dispatch then binds
    /// it to the server's default vault, unless `auth.unboundTokensAllVaults` is on (see
    /// `Served::binding_of`). `false` for stdio, the command line and local HTTP callers.
    pub token_without_vault: bool,
}

impl Caller {
    /// The identity of the stdio transport's caller.
    pub const STDIO_ID: &'static str = "stdio";

    /// The trusted stdio caller: id `stdio`, the scope `*`, no vault binding.
    pub fn stdio() -> Caller {
        Caller {
            id: Caller::STDIO_ID.to_owned(),
            scopes: vec![Scope::everything()],
            vault_binding: None,
            token_without_vault: false,
        }
    }
}
