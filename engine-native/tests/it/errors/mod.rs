mod tool_error;
