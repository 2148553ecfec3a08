package dev.visibility.actions.write;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;

import dev.visibility.actions.action.ActionStatus;
import dev.visibility.platform.error.InvalidParameter;
import dev.visibility.platform.error.InvalidRequest;
import dev.visibility.platform.query.QueryParams;
import tools.jackson.databind.JsonNode;

/**
 * Validates write bodies field by field, so that every bad value is a 400 naming its field
 * (a wrong JSON type included). Unknown fields are refused rather than ignored: a misspelt
 * {@code stauts} must not look like a successful write.
 */
public final class WriteBodies {

    public static final List<String> PRIORITIES = List.of("high", "medium", "low");
    static final int MAX_TITLE = 200;
    static final int MAX_DESCRIPTION = 5000;
    static final int MAX_TARGET_LABEL = 200;
    static final int MAX_CHANNELS = 10;
    static final Pattern CHANNEL = Pattern.compile("[a-z0-9][a-z0-9_-]{0,39}");

    private static final Set<String> CREATE_FIELDS = Set.of("title", "description", "channels", "priority", "targetLabel", "assignedTo");
    private static final Set<String> PATCH_FIELDS = Set.of("status", "assignedTo", "priority", "targetLabel", "blocked");

    private WriteBodies() {
    }

    public static NewAction create(JsonNode body) {
        requireObject(body);
        refuseUnknown(body, CREATE_FIELDS);
        String title = text(body, "title", true, MAX_TITLE);
        String description = text(body, "description", true, MAX_DESCRIPTION);
        List<String> channels = channels(body);
        String priority = priority(body, true);
        String targetLabel = body.has("targetLabel") && !body.get("targetLabel").isNull()
                ? text(body, "targetLabel", false, MAX_TARGET_LABEL) : null;
        UUID assignedTo = body.has("assignedTo") && !body.get("assignedTo").isNull() ? uuid(body, "assignedTo") : null;
        return new NewAction(title, description, channels, priority, targetLabel, assignedTo);
    }

    public static ActionPatch patch(JsonNode body) {
        requireObject(body);
        refuseUnknown(body, PATCH_FIELDS);
        ActionStatus status = null;
        if (body.has("status")) {
            JsonNode node = body.get("status");
            if (!node.isString() || !ActionStatus.WIRE_NAMES.contains(node.asString())) {
                throw new InvalidParameter("status", "Field 'status' must be one of " + String.join(", ", ActionStatus.WIRE_NAMES));
            }
            status = ActionStatus.fromWire(node.asString());
        }
        ActionPatch.Set<UUID> assignedTo = null;
        if (body.has("assignedTo")) {
            assignedTo = new ActionPatch.Set<>(body.get("assignedTo").isNull() ? null : uuid(body, "assignedTo"));
        }
        String priority = body.has("priority") ? priority(body, true) : null;
        ActionPatch.Set<String> targetLabel = null;
        if (body.has("targetLabel")) {
            targetLabel = new ActionPatch.Set<>(body.get("targetLabel").isNull() ? null
                    : text(body, "targetLabel", false, MAX_TARGET_LABEL));
        }
        Boolean blocked = null;
        if (body.has("blocked")) {
            if (!body.get("blocked").isBoolean()) {
                throw new InvalidParameter("blocked", "Field 'blocked' must be true or false");
            }
            blocked = body.get("blocked").asBoolean();
        }
        ActionPatch patch = new ActionPatch(status, assignedTo, priority, targetLabel, blocked);
        if (patch.isEmpty()) {
            throw new InvalidRequest("The body must change at least one of " + String.join(", ", sorted(PATCH_FIELDS)));
        }
        return patch;
    }

    private static void requireObject(JsonNode body) {
        if (body == null || !body.isObject()) {
            throw new InvalidRequest("The request body must be a JSON object");
        }
    }

    private static void refuseUnknown(JsonNode body, Set<String> known) {
        for (String name : body.propertyNames()) {
            if (!known.contains(name)) {
                throw new InvalidParameter(name, "Field '" + name + "' is not known; allowed fields: " + String.join(", ", sorted(known)));
            }
        }
    }

    private static List<String> sorted(Set<String> names) {
        return names.stream().sorted().toList();
    }

    private static String text(JsonNode body, String name, boolean required, int max) {
        JsonNode node = body.get(name);
        if (node == null || node.isNull()) {
            if (required) {
                throw new InvalidParameter(name, "Field '" + name + "' is required");
            }
            return null;
        }
        if (!node.isString() || node.asString().isBlank() || node.asString().length() > max) {
            throw new InvalidParameter(name, "Field '" + name + "' must be a non-blank string of at most " + max + " characters");
        }
        return node.asString().strip();
    }

    private static List<String> channels(JsonNode body) {
        JsonNode node = body.get("channels");
        String message = "Field 'channels' must be an array of 1 to " + MAX_CHANNELS
                + " channel names (lowercase letters, digits, '_' or '-', at most 40 characters)";
        if (node == null || node.isNull()) {
            throw new InvalidParameter("channels", "Field 'channels' is required");
        }
        if (!node.isArray() || node.isEmpty() || node.size() > MAX_CHANNELS) {
            throw new InvalidParameter("channels", message);
        }
        Set<String> channels = new LinkedHashSet<>();
        for (JsonNode item : node) {
            if (!item.isString() || !CHANNEL.matcher(item.asString()).matches()) {
                throw new InvalidParameter("channels", message);
            }
            channels.add(item.asString());
        }
        return new ArrayList<>(channels);
    }

    private static String priority(JsonNode body, boolean required) {
        JsonNode node = body.get("priority");
        if (node == null || node.isNull()) {
            if (required) {
                throw new InvalidParameter("priority", "Field 'priority' is required, one of " + String.join(", ", PRIORITIES));
            }
            return null;
        }
        if (!node.isString() || !PRIORITIES.contains(node.asString())) {
            throw new InvalidParameter("priority", "Field 'priority' must be one of " + String.join(", ", PRIORITIES));
        }
        return node.asString();
    }

    private static UUID uuid(JsonNode body, String name) {
        JsonNode node = body.get(name);
        if (!node.isString()) {
            throw new InvalidParameter(name, "Field '" + name + "' must be a UUID or null");
        }
        return QueryParams.pathUuid(name, node.asString());
    }
}
