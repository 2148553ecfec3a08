package dev.visibility.actions.list;

import dev.visibility.platform.web.Meta;
import io.swagger.v3.oas.annotations.media.Schema;

/**
 * What E3 answers, for the OpenAPI document only: the controller writes {@code data} already
 * rendered ({@link RenderedJson}), which is this shape, under the name springdoc gives
 * {@code Envelope<ActionList>}.
 */
@Schema(name = "EnvelopeActionList")
record ActionListEnvelope(ActionList data, Meta meta) {
}
