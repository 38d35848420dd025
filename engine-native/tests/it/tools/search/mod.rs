mod df_oracle;
mod feedback;
mod modes;
mod named_modes;
mod regex;
mod text;
