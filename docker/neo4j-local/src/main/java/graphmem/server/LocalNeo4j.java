package graphmem.server;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
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
import org.neo4j.server.configuration.ServerSettings;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * Runs a real Neo4j Community DBMS in this JVM through Neo4j's own embedding API, with Bolt and
 * HTTP (Neo4j Browser at /browser/) on loopback. It exists for machines without a Docker engine:
 * graphmem's Python side ({@code graphmem server start}) builds and starts it, then talks to it
 * over Bolt like to any other server.
 *
 * <p>Arguments: {@code --home DIR --host 127.0.0.1 --bolt-port 7687 --http-port 7474
 * --pagecache 512m --plugins DIR [--guides DIR --guide-port 7476]}. The password, when auth is wanted, comes from the environment
 * variable GRAPHMEM_NEO4J_PASSWORD so that it never shows in a process listing.
 *
 * <p>With {@code --guides}, the files of that folder (graphmem's Browser guide) are served on
 * {@code --guide-port}, on the same loopback host, with the CORS header Browser needs to fetch a guide;
 * Browser may fetch guides from this host ({@code browser.remote_content_hostname_whitelist}).
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
                .setConfig(ServerSettings.browser_remote_content_hostname_whitelist, "guides.neo4j.com,localhost," + host)
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
        if (opts.containsKey("guides")) {
            serveGuides(Path.of(opts.get("guides")).toAbsolutePath(), host,
                    Integer.parseInt(opts.getOrDefault("guide-port", String.valueOf(httpPort + 2))));
        }
        // Touch the default database so that "ready" means ready for queries.
        dbms.database(GraphDatabaseSettings.DEFAULT_DATABASE_NAME).executeTransactionally("RETURN 1");
        System.out.printf("graphmem-local-neo4j: ready bolt://%s:%d http://%s:%d/browser/ home=%s auth=%s%n",
                host, boltPort, host, httpPort, home, auth ? "on" : "off");
        System.out.flush();
        stopped.await();
    }

    /**
     * Serve the guide folder's files, read-only, on loopback. A taken port only costs the guide: the
     * database still starts, and the log says why {@code :play} will not find it.
     */
    private static void serveGuides(Path folder, String host, int port) {
        HttpServer server;
        try {
            server = HttpServer.create(new InetSocketAddress(host, port), 0);
        } catch (IOException e) {
            System.out.printf("graphmem-local-neo4j: no Browser guide: port %d: %s%n", port, e.getMessage());
            return;
        }
        server.createContext("/", exchange -> answer(exchange, folder));
        server.setExecutor(null);
        server.start();
        System.out.printf("graphmem-local-neo4j: Browser guide at http://%s:%d/%n", host, port);
    }

    private static void answer(HttpExchange exchange, Path folder) throws IOException {
        exchange.getResponseHeaders().set("Access-Control-Allow-Origin", "*");
        if ("OPTIONS".equals(exchange.getRequestMethod())) { // Browser's CORS preflight
            exchange.getResponseHeaders().set("Access-Control-Allow-Methods", "GET");
            String asked = exchange.getRequestHeaders().getFirst("Access-Control-Request-Headers");
            exchange.getResponseHeaders().set("Access-Control-Allow-Headers", asked == null ? "*" : asked);
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
            return;
        }
        String name = exchange.getRequestURI().getPath().replaceFirst("^/", "");
        Path file = folder.resolve(name).normalize();
        boolean ok = "GET".equals(exchange.getRequestMethod()) && !name.isEmpty() && !name.contains("/")
                && file.startsWith(folder) && Files.isRegularFile(file);
        byte[] body = ok ? Files.readAllBytes(file) : "not found\n".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", ok ? "text/html; charset=utf-8" : "text/plain");
        exchange.sendResponseHeaders(ok ? 200 : 404, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
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
