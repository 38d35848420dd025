mod attachments;
mod links;
