package dev.visibility.actions.action;

import java.util.Map;

/** What an action changes: a label for people, a type and a free payload for tools (spec 6.2 {@code target}). */
public record Target(String label, String type, Map<String, Object> payload) {
}
