package dev.visibility.auth.accounts;

/** An account's plan; Plus and above carry the API Access entitlement (spec 5.11, 8). */
public enum Plan {
    FREE("free", false),
    PLUS("plus", true),
    PRO("pro", true),
    ENTERPRISE("enterprise", true);

    private final String value;
    private final boolean apiAccess;

    Plan(String value, boolean apiAccess) {
        this.value = value;
        this.apiAccess = apiAccess;
    }

    public String value() {
        return value;
    }

    public boolean apiAccess() {
        return apiAccess;
    }

    public static Plan of(String value) {
        for (Plan plan : values()) {
            if (plan.value.equals(value)) {
                return plan;
            }
        }
        throw new IllegalArgumentException("Unknown plan");
    }
}
