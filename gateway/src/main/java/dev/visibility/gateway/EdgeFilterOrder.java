package dev.visibility.gateway;

/**
 * The order of the edge's web filters, after Spring Security's chain (-100) and before the
 * gateway's routing handler: CORS, authentication, rate limit, then project and scope checks.
 */
public final class EdgeFilterOrder {

    public static final int CORS = -50;
    public static final int AUTHENTICATION = -40;
    public static final int RATE_LIMIT = -30;
    public static final int AUTHORIZATION = -20;

    private EdgeFilterOrder() {
    }
}
