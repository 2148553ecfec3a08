package dev.visibility.mcp.server;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.dialect.Dialects;
import dev.visibility.mcp.tools.StructuredBody;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import io.modelcontextprotocol.spec.McpSchema;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The tools' input and output schemas, compiled once at start-up (JSON Schema 2020-12, as the
 * SDK's own validator reads them) and found by the identity of the schema the SDK hands over:
 * the SDK's validator would hash the whole schema map and turn the tool's answer into a tree and
 * back into text on every call. A tool's answer ({@link StructuredBody}) is checked as the tree
 * it was parsed into once. A schema that is not one of the tools' (none today) goes to the SDK's
 * validator. Refusals read as the SDK's do.
 */
final class ToolSchemas implements JsonSchemaValidator {

    private final JsonMapper mapper = JsonMapper.shared();
    private final Map<Map<String, Object>, Schema> compiled = new IdentityHashMap<>();
    private final JsonSchemaValidator others;

    ToolSchemas(List<McpSchema.Tool> tools, JsonSchemaValidator others) {
        this.others = others;
        SchemaRegistry registry = SchemaRegistry.withDefaultDialect(Dialects.getDraft202012());
        for (McpSchema.Tool tool : tools) {
            for (Map<String, Object> schema : new Map[] {tool.inputSchema(), tool.outputSchema()}) {
                if (schema != null) {
                    compiled.put(schema, registry.getSchema(mapper.valueToTree(schema)));
                }
            }
        }
        // refuse something once per schema now: the validator's message bundles are read from the
        // jar with the first refusal, which must not happen on an event-loop thread (BlockHound)
        for (McpSchema.Tool tool : tools) {
            if (validate(tool.inputSchema(), Map.of("warm-up", true)).valid()
                    || (tool.outputSchema() != null && validate(tool.outputSchema(), Map.of()).valid())) {
                throw new IllegalStateException("The schemas of " + tool.name() + " accept what they must refuse");
            }
        }
    }

    @Override
    public ValidationResponse validate(Map<String, Object> schema, Object content) {
        Schema known = compiled.get(schema);
        if (known == null) {
            return others.validate(schema, content);
        }
        JsonNode tree = content instanceof StructuredBody body ? body.tree() : mapper.valueToTree(content);
        List<Error> errors = known.validate(tree);
        if (!errors.isEmpty()) {
            return ValidationResponse.asInvalid("Validation failed: JSON schema validation errors: " + errors);
        }
        return ValidationResponse.asValid(content instanceof StructuredBody body ? body.text() : tree.toString());
    }

    @Override
    public ValidationResponse validateSchema(Map<String, Object> schema) {
        return others.validateSchema(schema);
    }
}
