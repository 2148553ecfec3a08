package dev.visibility.visibility.agentpicks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

/** E1 rule 4: a URL shows only its HTTP origin; packages must match the configured tool catalog. */
class WithholdingTest {

    private final Withholding withholding = new Withholding(new AgentPicksProperties(List.of("stripe", "@Stripe/Stripe-JS", " resend ")));

    @Test
    void urlIsReducedToItsHttpOrigin() {
        assertThat(Withholding.origin("https://docs.stripe.com/payments/checkout?session=cs_live_123#x")).isEqualTo("https://docs.stripe.com");
        assertThat(Withholding.origin("HTTP://User:Secret@Example.COM:8080/a/b")).isEqualTo("http://example.com:8080");
        assertThat(Withholding.origin("https://example.com:443/")).isEqualTo("https://example.com");
        assertThat(Withholding.origin("http://example.com:80")).isEqualTo("http://example.com");
        assertThat(Withholding.origin("http://[::1]:3000/admin")).isEqualTo("http://[::1]:3000");
    }

    @Test
    void whatHasNoHttpOriginIsNull() {
        assertThat(Withholding.origin("file:///home/dev/.npmrc")).isNull();
        assertThat(Withholding.origin("ftp://example.com/x")).isNull();
        assertThat(Withholding.origin("/relative/path")).isNull();
        assertThat(Withholding.origin("not a url at all")).isNull();
        assertThat(Withholding.origin("https:///no-host")).isNull();
        assertThat(Withholding.origin("")).isNull();
        assertThat(Withholding.origin(null)).isNull();
    }

    @Test
    void onlyCatalogPackagesAreKeptWithoutVersionsAndTheFlagSaysWhenOthersWereWithheld() {
        assertThat(withholding.catalogOnly(List.of("stripe@17.4.0", "@stripe/stripe-js@^2", "Resend")))
                .isEqualTo(new Withholding.Filtered(List.of("stripe", "@stripe/stripe-js", "resend"), false));
        assertThat(withholding.catalogOnly(List.of("stripe", "internal-sdk", "stripe@1")))
                .isEqualTo(new Withholding.Filtered(List.of("stripe"), true));
        assertThat(withholding.catalogOnly(List.of())).isEqualTo(new Withholding.Filtered(List.of(), false));
        assertThat(withholding.catalogOnly(null)).isEqualTo(new Withholding.Filtered(List.of(), false));
    }

    @Test
    void sourceAndMethodAreShownOnlyFromTheirVocabularies() {
        assertThat(withholding.source("Web")).isEqualTo("web");
        assertThat(withholding.source("stripe")).isEqualTo("stripe");
        assertThat(withholding.source("my-secret-tool")).isNull();
        assertThat(Withholding.method("post")).isEqualTo("POST");
        assertThat(Withholding.method("BREW")).isNull();
    }
}
