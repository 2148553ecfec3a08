package dev.visibility.auth.accounts;

/** An owner holds every permission on every project of the account; a member only what is granted per project. */
public enum MemberRole {
    OWNER("owner"),
    MEMBER("member");

    private final String value;

    MemberRole(String value) {
        this.value = value;
    }

    public String value() {
        return value;
    }

    public static MemberRole of(String value) {
        return OWNER.value.equals(value) ? OWNER : MEMBER;
    }
}
