mod call;
mod doctor;
mod doctor_embeddings;
mod elicit;
#[cfg(target_os = "linux")]
mod heap_pages;
mod index;
mod model;
mod plugin_install;
mod setup;
mod version;
