mod edit_note;
mod read;
mod write;
