mod df_oracle;
mod modes;
mod named_modes;
mod regex;
mod text;
