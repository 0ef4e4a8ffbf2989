package graphmem.server;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.connectors.HttpConnector;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.dbms.api.DatabaseManagementServiceBuilder;
import org.neo4j.graphdb.GraphDatabaseService;

/**
 * Runs a real Neo4j Community DBMS in this JVM through Neo4j's own embedding API, with Bolt and
 * HTTP (Neo4j Browser at /browser/) on loopback. It exists for machines without a Docker engine:
 * graphmem's Python side ({@code graphmem server start}) builds and starts it, then talks to it
 * over Bolt like to any other server.
 *
 * <p>Arguments: {@code --home DIR --host 127.0.0.1 --bolt-port 7687 --http-port 7474
 * --pagecache 512m --plugins DIR}. The password, when auth is wanted, comes from the environment
 * variable GRAPHMEM_NEO4J_PASSWORD so that it never shows in a process listing.
 *
 * <p>SIGTERM runs the shutdown hook, which shuts the DBMS down cleanly (data survives restarts).
 */
public final class LocalNeo4j {

    private LocalNeo4j() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = parse(args);
        Path home = Path.of(opts.getOrDefault("home", "neo4j-home")).toAbsolutePath();
        String host = opts.getOrDefault("host", "127.0.0.1");
        int boltPort = Integer.parseInt(opts.getOrDefault("bolt-port", "7687"));
        int httpPort = Integer.parseInt(opts.getOrDefault("http-port", "7474"));
        long pageCache = bytes(opts.getOrDefault("pagecache", "512m"));
        String password = System.getenv("GRAPHMEM_NEO4J_PASSWORD");
        boolean auth = password != null && !password.isEmpty();

        Files.createDirectories(home);
        DatabaseManagementServiceBuilder builder = new DatabaseManagementServiceBuilder(home)
                .setConfig(BoltConnector.enabled, true)
                .setConfig(BoltConnector.listen_address, new SocketAddress(host, boltPort))
                .setConfig(BoltConnector.advertised_address, new SocketAddress(host, boltPort))
                .setConfig(HttpConnector.enabled, true)
                .setConfig(HttpConnector.listen_address, new SocketAddress(host, httpPort))
                .setConfig(HttpConnector.advertised_address, new SocketAddress(host, httpPort))
                .setConfig(GraphDatabaseSettings.pagecache_memory, pageCache)
                .setConfig(GraphDatabaseSettings.auth_enabled, auth)
                .setConfig(GraphDatabaseSettings.procedure_unrestricted, List.of("apoc.*"))
                // Keep about 1 GB of transaction logs, not Neo4j's two days' worth: a day of bulk
                // loads and test runs left 63 GB on one machine and filled its disk. Recovery only
                // needs the logs since the last checkpoint; neo4j.conf below may say otherwise.
                .setConfig(GraphDatabaseSettings.keep_logical_logs, "1G size");
        if (opts.containsKey("plugins")) {
            builder.setConfig(GraphDatabaseSettings.plugin_dir, Path.of(opts.get("plugins")).toAbsolutePath());
        }
        Path extra = home.resolve("conf").resolve("neo4j.conf");
        if (Files.isRegularFile(extra)) {
            builder.loadPropertiesFromFile(extra); // user overrides, e.g. a larger page cache
        }

        DatabaseManagementService dbms = builder.build();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.out.println("graphmem-local-neo4j: shutting down");
            dbms.shutdown();
            stopped.countDown();
        }, "graphmem-shutdown"));

        if (auth) {
            GraphDatabaseService system = dbms.database("system");
            try {
                system.executeTransactionally(
                        "ALTER USER neo4j SET PASSWORD $pw CHANGE NOT REQUIRED", Map.of("pw", password));
            } catch (org.neo4j.graphdb.QueryExecutionException e) {
                // A restart with the password already set: Neo4j refuses to "change" it to itself.
                String message = String.valueOf(e.getMessage());
                if (!message.contains("Old password and new password cannot be the same")) {
                    throw e;
                }
            }
        }
        // Touch the default database so that "ready" means ready for queries.
        dbms.database(GraphDatabaseSettings.DEFAULT_DATABASE_NAME).executeTransactionally("RETURN 1");
        System.out.printf("graphmem-local-neo4j: ready bolt://%s:%d http://%s:%d/browser/ home=%s auth=%s%n",
                host, boltPort, host, httpPort, home, auth ? "on" : "off");
        System.out.flush();
        stopped.await();
    }

    private static Map<String, String> parse(String[] args) {
        Map<String, String> out = new java.util.HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            if (!args[i].startsWith("--")) {
                throw new IllegalArgumentException("expected --name value pairs, got " + args[i]);
            }
            out.put(args[i].substring(2), args[i + 1]);
        }
        return out;
    }

    /** "512m" / "2g" / "1048576" to bytes. */
    private static long bytes(String text) {
        String t = text.trim().toLowerCase();
        long unit = 1;
        if (t.endsWith("k")) unit = 1L << 10;
        if (t.endsWith("m")) unit = 1L << 20;
        if (t.endsWith("g")) unit = 1L << 30;
        if (unit != 1) t = t.substring(0, t.length() - 1);
        return Long.parseLong(t) * unit;
    }
}
