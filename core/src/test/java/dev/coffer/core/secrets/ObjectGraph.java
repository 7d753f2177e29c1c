package dev.coffer.core.secrets;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Test helper: every object reachable from a root through the fields of Coffer's own classes and
 * through collections, maps and object arrays, with the field path that reached it. JDK and
 * library objects are reported but not entered (their internals are not ours to inspect).
 *
 * <p>Not responsible for judging what it finds ({@link KeysAfterLockTest}).
 */
final class ObjectGraph {
    /** One reachable object and how it was reached. */
    record Node(String path, Object object) {}

    private ObjectGraph() {}

    static List<Node> reachableFrom(Object root) {
        List<Node> out = new ArrayList<>();
        IdentityHashMap<Object, Boolean> seen = new IdentityHashMap<>();
        List<Node> todo = new ArrayList<>();
        todo.add(new Node(root.getClass().getSimpleName(), root));
        while (!todo.isEmpty()) {
            Node n = todo.remove(todo.size() - 1);
            Object o = n.object();
            if (o == null || seen.put(o, Boolean.TRUE) != null) {
                continue;
            }
            out.add(n);
            if (o instanceof Object[] array) {
                for (int i = 0; i < array.length; i++) {
                    todo.add(new Node(n.path() + "[" + i + "]", array[i]));
                }
            } else if (o instanceof Collection<?> c) {
                int i = 0;
                for (Object e : c.toArray()) {
                    todo.add(new Node(n.path() + "<" + i++ + ">", e));
                }
            } else if (o instanceof Map<?, ?> m) {
                for (Map.Entry<?, ?> e : new ArrayList<>(m.entrySet())) {
                    todo.add(new Node(n.path() + "{key}", e.getKey()));
                    todo.add(new Node(n.path() + "{" + e.getKey() + "}", e.getValue()));
                }
            } else if (o.getClass().getName().startsWith("dev.coffer.")) {
                for (Class<?> c = o.getClass(); c != null && c.getName().startsWith("dev.coffer."); c = c.getSuperclass()) {
                    for (Field f : c.getDeclaredFields()) {
                        if (Modifier.isStatic(f.getModifiers()) || f.getType().isPrimitive()) {
                            continue;
                        }
                        todo.add(new Node(n.path() + "." + f.getName(), read(f, o)));
                    }
                }
            }
        }
        return out;
    }

    /** The value of {@code f} in {@code o} (Coffer's classes are in the unnamed module: always accessible). */
    static Object read(Field f, Object o) {
        try {
            f.setAccessible(true);
            return f.get(o);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }
}
