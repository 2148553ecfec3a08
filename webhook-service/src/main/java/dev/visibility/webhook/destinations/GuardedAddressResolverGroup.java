package dev.visibility.webhook.destinations;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

import io.netty.resolver.AbstractAddressResolver;
import io.netty.resolver.AddressResolver;
import io.netty.resolver.AddressResolverGroup;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.Promise;
import reactor.core.scheduler.Scheduler;

/**
 * The resolver of the delivery client: every connection's host goes through the
 * {@link DestinationGuard}, and the client connects only to the addresses the guard returned, so
 * there is no second lookup that DNS rebinding could answer differently. IP literals are checked
 * too (they are never treated as already resolved). Lookups block, so they run on
 * {@code blocking}, never on the event loop.
 */
public class GuardedAddressResolverGroup extends AddressResolverGroup<InetSocketAddress> {

    private final DestinationGuard guard;
    private final Scheduler blocking;

    public GuardedAddressResolverGroup(DestinationGuard guard, Scheduler blocking) {
        this.guard = guard;
        this.blocking = blocking;
    }

    @Override
    protected AddressResolver<InetSocketAddress> newResolver(EventExecutor executor) {
        return new GuardedResolver(executor);
    }

    private final class GuardedResolver extends AbstractAddressResolver<InetSocketAddress> {

        GuardedResolver(EventExecutor executor) {
            super(executor, InetSocketAddress.class);
        }

        @Override
        protected boolean doIsResolved(InetSocketAddress address) {
            return false;
        }

        @Override
        protected void doResolve(InetSocketAddress unresolved, Promise<InetSocketAddress> promise) {
            blocking.schedule(() -> {
                try {
                    promise.trySuccess(checked(unresolved).get(0));
                } catch (Exception e) {
                    promise.tryFailure(e);
                }
            });
        }

        @Override
        protected void doResolveAll(InetSocketAddress unresolved, Promise<List<InetSocketAddress>> promise) {
            blocking.schedule(() -> {
                try {
                    promise.trySuccess(checked(unresolved));
                } catch (Exception e) {
                    promise.tryFailure(e);
                }
            });
        }

        private List<InetSocketAddress> checked(InetSocketAddress unresolved) throws DestinationRefused {
            List<InetSocketAddress> out = new ArrayList<>();
            for (InetAddress address : guard.resolve(unresolved.getHostString())) {
                out.add(new InetSocketAddress(address, unresolved.getPort()));
            }
            return out;
        }
    }
}
