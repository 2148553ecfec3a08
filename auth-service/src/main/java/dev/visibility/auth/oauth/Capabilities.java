package dev.visibility.auth.oauth;

import java.util.Collection;
import java.util.List;

import dev.visibility.auth.accounts.Permissions;
import dev.visibility.auth.accounts.ProjectAccess;

/**
 * What an MCP connection may do on its project (DESIGN.md, MCP and OAuth), approved by the member
 * on the consent page and carried in the access token's {@code capabilities} claim:
 * {@value #READ} (every read tool; always granted), {@value #WRITE} (write tools such as
 * {@code service_update_action}) and {@value #AGENT_EXECUTION} (agent execution such as
 * {@code service_delete_thread}). The last two are offered only to members with
 * {@code settings.manage} on the project.
 */
public final class Capabilities {

    public static final String READ = "read";
    public static final String WRITE = "write";
    public static final String AGENT_EXECUTION = "agent-execution";

    /** In this order everywhere (page, claim). */
    public static final List<String> ALL = List.of(READ, WRITE, AGENT_EXECUTION);

    private Capabilities() {
    }

    /** What the member may approve (or keep) on this project now. */
    public static List<String> offered(ProjectAccess project) {
        if (!project.member()) {
            return List.of();
        }
        return project.permissions().contains(Permissions.SETTINGS_MANAGE) ? ALL : List.of(READ);
    }

    /** {@code chosen} narrowed to {@code allowed}, in catalogue order. */
    public static List<String> within(Collection<String> chosen, Collection<String> allowed) {
        return ALL.stream().filter(chosen::contains).filter(allowed::contains).toList();
    }
}
