package dev.hippograph.neo4j;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.ws.rs.GET;
import javax.ws.rs.PathParam;
import javax.ws.rs.Produces;
import javax.ws.rs.core.Response;

/**
 * Serves Neo4j Browser guides (HTML slides) from one directory, so that Browser can play them from
 * its own origin on loopback, offline: {@code :guide http://127.0.0.1:PORT/hippograph/guides/NAME.html}.
 * An unmanaged extension, mounted by {@code server.unmanaged_extension_classes}; the directory is the
 * system property {@code hippograph.guides}. Files are read on every request, so a guide written
 * again is served without a restart. Only plain names are served: nothing outside the directory.
 */
@javax.ws.rs.Path("/guides")
public class Guides {
    private static final String NAME = "[a-z0-9_-]+\\.html";

    @GET
    @javax.ws.rs.Path("{name: " + NAME + "}")
    @Produces("text/html; charset=utf-8")
    public Response guide(@PathParam("name") String name) throws IOException {
        String directory = System.getProperty("hippograph.guides");
        if (directory == null || !name.matches(NAME)) {
            return Response.status(Response.Status.NOT_FOUND).build();
        }
        Path file = Path.of(directory).resolve(name);
        if (!Files.isRegularFile(file)) {
            return Response.status(Response.Status.NOT_FOUND).build();
        }
        return Response.ok(Files.readString(file, StandardCharsets.UTF_8)).build();
    }
}
