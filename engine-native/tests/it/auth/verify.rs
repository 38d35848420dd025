//! The token verifier on its own, at a fixed time: every algorithm accepted with its own key
//! only, and every documented refusal with its reason.

use engine_core::acl::Scope;
use jsonwebtoken::Algorithm;
use obsidian_tc::auth::{FailureReason, Verifier};
use obsidian_tc::config::{AuthConfig, AuthMode, JwtAlgorithm};
use serde_json::{Value, json};

use crate::support::auth::{SECRET, claims, confused, jwks, sign, unsigned};

const NOW: u64 = 1_800_000_000;

fn config() -> AuthConfig {
    AuthConfig {
        mode: AuthMode::Jwt,
        jwt_secret: Some(SECRET.to_owned()),
        jwks: Some(jwks()),
        ..AuthConfig::default()
    }
}

fn verifier(auth: &AuthConfig) -> Verifier {
    Verifier::new(auth).unwrap_or_else(|p| panic!("keys load: {p:?}"))
}

fn refused(auth: &AuthConfig, token: &str) -> FailureReason {
    let failure = verifier(auth)
        .verify(token, NOW)
        .expect_err("the token is refused");
    assert!(
        !failure.message.contains(token),
        "the message never echoes the token"
    );
    failure.reason
}

#[test]
fn each_algorithm_is_accepted_with_its_own_key() {
    let auth = config();
    for (alg, kid) in [
        (Algorithm::HS256, None),
        (Algorithm::RS256, Some("rsa-1")),
        (Algorithm::ES256, Some("ec-1")),
        (Algorithm::EdDSA, Some("ed-1")),
    ] {
        let token = sign(alg, kid, &claims(NOW, "agent", &["read:notes", "write:*"]));
        let caller = verifier(&auth)
            .verify(&token, NOW)
            .unwrap_or_else(|f| panic!("{alg:?} accepted, got {f}"));
        assert_eq!(caller.id, "agent");
        assert_eq!(
            caller.scopes,
            vec![
                Scope::parse("read:notes").expect("scope"),
                Scope::parse("write:*").expect("scope")
            ]
        );
        assert_eq!(caller.vault_binding, None);
    }
}

#[test]
fn scope_string_and_vault_claim_make_the_caller() {
    let mut body = claims(NOW, "bound", &[]);
    body["scopes"] = Value::Null;
    body["scope"] = json!("read:notes  admin:metrics");
    body["vault"] = json!("main");
    let caller = verifier(&config())
        .verify(&sign(Algorithm::HS256, None, &body), NOW)
        .expect("accepted");
    assert_eq!(caller.scopes.len(), 2);
    assert_eq!(caller.vault_binding.as_deref(), Some("main"));
}

#[test]
fn hs256_signed_with_the_public_key_is_refused() {
    let body = claims(NOW, "mallory", &["*"]);
    assert_eq!(
        refused(&config(), &confused(&body)),
        FailureReason::BadSignature
    );
    let jwks_only = AuthConfig {
        jwt_secret: None,
        ..config()
    };
    assert_eq!(
        refused(&jwks_only, &confused(&body)),
        FailureReason::UnsupportedAlg
    );
}

#[test]
fn alg_none_is_refused() {
    let token = unsigned(&sign(Algorithm::HS256, None, &claims(NOW, "x", &["*"])));
    assert_eq!(refused(&config(), &token), FailureReason::Malformed);
}

#[test]
fn a_key_of_another_type_or_an_unknown_kid_is_refused() {
    let body = claims(NOW, "x", &["*"]);
    let rsa_under_ec_kid = sign(Algorithm::RS256, Some("ec-1"), &body);
    assert_eq!(
        refused(&config(), &rsa_under_ec_kid),
        FailureReason::UnsupportedAlg
    );
    let unknown = sign(Algorithm::RS256, Some("rsa-2"), &body);
    assert_eq!(refused(&config(), &unknown), FailureReason::UnknownKid);
    let no_kid = sign(Algorithm::ES256, None, &body);
    assert_eq!(refused(&config(), &no_kid), FailureReason::UnknownKid);
}

#[test]
fn the_allowlist_limits_the_algorithms() {
    let rsa_only = AuthConfig {
        algorithms: Some(vec![JwtAlgorithm::RS256]),
        ..config()
    };
    let body = claims(NOW, "x", &["*"]);
    assert_eq!(
        refused(&rsa_only, &sign(Algorithm::ES256, Some("ec-1"), &body)),
        FailureReason::UnsupportedAlg
    );
    assert_eq!(
        refused(&rsa_only, &sign(Algorithm::HS256, None, &body)),
        FailureReason::UnsupportedAlg
    );
    assert!(
        verifier(&rsa_only)
            .verify(&sign(Algorithm::RS256, Some("rsa-1"), &body), NOW)
            .is_ok()
    );
}

#[test]
fn a_tampered_signature_is_refused() {
    let token = sign(Algorithm::EdDSA, Some("ed-1"), &claims(NOW, "x", &["*"]));
    let other = sign(Algorithm::EdDSA, Some("ed-1"), &claims(NOW, "y", &["*"]));
    let signature = other.rsplit('.').next().expect("signature");
    let (signed, _) = token.rsplit_once('.').expect("three parts");
    let forged = format!("{signed}.{signature}");
    assert_eq!(refused(&config(), &forged), FailureReason::BadSignature);
}

#[test]
fn time_claims_are_enforced_with_a_small_leeway() {
    let auth = config();
    let at = |patch: Value| {
        let mut body = claims(NOW, "x", &["*"]);
        if let (Some(body), Value::Object(patch)) = (body.as_object_mut(), patch) {
            body.extend(patch);
        }
        sign(Algorithm::HS256, None, &body)
    };
    let expired = at(json!({"iat": NOW - 7200, "exp": NOW - 60}));
    assert_eq!(refused(&auth, &expired), FailureReason::TokenExpired);
    let within_leeway = at(json!({"exp": NOW - 5}));
    assert!(verifier(&auth).verify(&within_leeway, NOW).is_ok());
    let not_yet = at(json!({"nbf": NOW + 600}));
    assert_eq!(refused(&auth, &not_yet), FailureReason::TokenNotYetValid);
    let too_old = at(json!({"iat": NOW - 90_000, "exp": NOW + 86_400}));
    assert_eq!(refused(&auth, &too_old), FailureReason::TokenMaxAge);
    let short_max_age = AuthConfig {
        token_ttl_seconds: 600,
        ..config()
    };
    let hour_old = at(json!({"iat": NOW - 3600}));
    assert_eq!(
        refused(&short_max_age, &hour_old),
        FailureReason::TokenMaxAge
    );
    let no_exp = at(json!({"exp": null}));
    assert_eq!(refused(&auth, &no_exp), FailureReason::MissingClaim);
    let no_iat = at(json!({"iat": null}));
    assert_eq!(refused(&auth, &no_iat), FailureReason::MissingClaim);
    let no_sub = at(json!({"sub": null}));
    assert_eq!(refused(&auth, &no_sub), FailureReason::MissingClaim);
}

#[test]
fn audience_and_issuer_are_checked_when_configured() {
    let auth = AuthConfig {
        audience: Some("obsidian-tc".to_owned()),
        issuer: Some("https://issuer.example".to_owned()),
        ..config()
    };
    let mut body = claims(NOW, "x", &["*"]);
    body["iss"] = json!("https://issuer.example");
    body["aud"] = json!(["other", "obsidian-tc"]);
    assert!(
        verifier(&auth)
            .verify(&sign(Algorithm::HS256, None, &body), NOW)
            .is_ok()
    );
    body["aud"] = json!("other");
    assert_eq!(
        refused(&auth, &sign(Algorithm::HS256, None, &body)),
        FailureReason::AudienceMismatch
    );
    body["aud"] = json!("obsidian-tc");
    body["iss"] = json!("https://evil.example");
    assert_eq!(
        refused(&auth, &sign(Algorithm::HS256, None, &body)),
        FailureReason::IssuerMismatch
    );
}

#[test]
fn a_scope_outside_the_grammar_is_refused() {
    let token = sign(Algorithm::HS256, None, &claims(NOW, "x", &["read:"]));
    assert_eq!(refused(&config(), &token), FailureReason::Malformed);
}
