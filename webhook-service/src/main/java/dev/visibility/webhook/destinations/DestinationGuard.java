package dev.visibility.webhook.destinations;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Resolves a destination host and checks every address it resolves to against the
 * {@link AddressPolicy} (DESIGN.md, Webhook delivery). A host is refused when any one of its
 * addresses is refused, so that a name mixing a public and an internal address cannot be used to
 * reach the internal one. Used when a subscription is created and, through
 * {@link GuardedAddressResolverGroup}, as the resolver of every delivery connection, which then
 * connects only to the addresses checked here. Blocking: call it off event-loop threads.
 */
public class DestinationGuard {

    private static final Logger log = LoggerFactory.getLogger(DestinationGuard.class);

    /** Looks a host up; the system resolver in production, a fixed table in tests of the guard. */
    @FunctionalInterface
    public interface HostResolver {
        InetAddress[] resolve(String host) throws UnknownHostException;
    }

    private final AddressPolicy policy;
    private final HostResolver resolver;

    public DestinationGuard(AddressPolicy policy, HostResolver resolver) {
        this.policy = policy;
        this.resolver = resolver;
    }

    public DestinationGuard(AddressPolicy policy) {
        this(policy, InetAddress::getAllByName);
    }

    /** The addresses of {@code host} (a name or an IP literal, IPv6 with or without brackets), all allowed. */
    public List<InetAddress> resolve(String host) throws DestinationRefused {
        String bare = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        InetAddress[] addresses;
        try {
            addresses = resolver.resolve(bare);
        } catch (UnknownHostException e) {
            throw new DestinationRefused("The destination host does not resolve");
        }
        if (addresses == null || addresses.length == 0) {
            throw new DestinationRefused("The destination host does not resolve");
        }
        for (InetAddress address : addresses) {
            Optional<String> refusal = policy.refusal(address);
            if (refusal.isPresent()) {
                log.info("Refused a webhook destination: a host resolves to a {} address", refusal.get());
                throw new DestinationRefused("The destination host resolves to a " + refusal.get() + " address");
            }
        }
        return List.of(addresses);
    }
}
