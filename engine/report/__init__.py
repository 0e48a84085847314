"""Stage 6, what people and tools read: the report dict (schema/report.schema.json) built from
an audit's results, and its renderers (text, Markdown, JSON; SARIF, GitHub annotations, JSON
Lines), a diagnosis record, and a check as a document for the skill and the MCP server.

May import advise, fix, check, scan and kb."""
