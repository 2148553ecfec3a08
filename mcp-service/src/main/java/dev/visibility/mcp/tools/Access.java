package dev.visibility.mcp.tools;

import dev.visibility.platform.security.Caller;

/**
 * What a caller needs for a tool (DESIGN.md, "MCP and OAuth"; spec 5.7, 5.10): an API key needs
 * the scope of the tool's REST endpoint; an OAuth connection needs the capability approved for it
 * at consent. The gateway turns an OAuth connection's approved capabilities (and the member's
 * current permissions) into the scopes of its internal token ({@code scp}), so both are checked on
 * the scopes the REST services check too; only the name in the error differs.
 * {@code service_get_project_usage} needs nothing.
 */
public final class Access {

    /** Read tools: always approved at consent. */
    public static final String READ = "read";
    /** Write tools ({@code service_update_action}): offered to members with {@code settings.manage}. */
    public static final String WRITE = "write";
    /** Agent execution ({@code service_delete_thread}): offered to members with {@code settings.manage}. */
    public static final String AGENTS = "agent-execution";

    private Access() {
    }

    /** Null when the caller may call the tool, else the tool error's text naming what is missing. */
    public static String missing(ToolDefinition tool, Caller caller) {
        if (tool.scope() == null || caller.hasScope(tool.scope())) {
            return null;
        }
        if (caller.keyId() == null && caller.clientId() != null) {
            return "This MCP connection was not approved for the capability '" + tool.capability() + "' that "
                    + tool.name() + " needs; connect again and approve it (a member with settings.manage can)";
        }
        return "The API key lacks the scope '" + tool.scope() + "' that " + tool.name()
                + " needs (403 missing_scope); use a key that has it";
    }
}
