mod edit;
mod read;
mod roundtrip;
mod vaults;
