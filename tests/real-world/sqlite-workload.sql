-- A deterministic SQL workload for the sqlite3 shell (tests/real-world).
-- Run as `sqlite3 DB < sqlite-workload.sql` on a fresh database file: its
-- output must be byte-identical between builds of the same SQLite by
-- different compilers. Nothing here depends on time, randomness or the file
-- name: pseudo-random data comes from a linear congruential generator
-- written in SQL.
.bail on
.headers on
.mode list
.nullvalue NULL
PRAGMA page_size = 4096;
PRAGMA cache_size = 200;      -- small, so that the pager really works
PRAGMA journal_mode = DELETE;

.print '== 1. Schema and data'
CREATE TABLE customers(
  id INTEGER PRIMARY KEY, name TEXT NOT NULL, city TEXT, tier INTEGER,
  joined TEXT, balance REAL);
CREATE TABLE products(
  id INTEGER PRIMARY KEY, sku TEXT UNIQUE, title TEXT, category TEXT,
  price REAL, weight INTEGER);
CREATE TABLE orders(
  id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers(id),
  day INTEGER, status TEXT, note TEXT);
CREATE TABLE items(
  order_id INTEGER REFERENCES orders(id), product_id INTEGER REFERENCES products(id),
  qty INTEGER, unit_price REAL, PRIMARY KEY(order_id, product_id)) WITHOUT ROWID;

-- 2,000 customers.
WITH RECURSIVE c(i, r) AS (
  SELECT 1, 12345
  UNION ALL
  SELECT i + 1, (r * 1103515245 + 12345) % 2147483648 FROM c WHERE i < 2000)
INSERT INTO customers
SELECT i,
       'cust-' || printf('%05d', i) || '-' ||
         substr('abcdefghijklmnopqrstuvwxyz', 1 + r % 26, 1 + r % 7),
       CASE (r >> 16) % 8 WHEN 0 THEN 'Oslo' WHEN 1 THEN 'Lima' WHEN 2 THEN 'Pune'
                  WHEN 3 THEN 'Kyiv' WHEN 4 THEN 'Cork' WHEN 5 THEN 'Baku'
                  WHEN 6 THEN 'Riga' ELSE NULL END,
       1 + (r >> 8) % 4,
       printf('20%02d-%02d-%02d', 10 + (r >> 4) % 15, 1 + (r >> 9) % 12, 1 + (r >> 13) % 28),
       round(((r >> 5) % 100000) / 100.0 - 250.0, 2)
FROM c;

-- 500 products.
WITH RECURSIVE p(i, r) AS (
  SELECT 1, 777
  UNION ALL
  SELECT i + 1, (r * 69069 + 1) % 4294967296 FROM p WHERE i < 500)
INSERT INTO products
SELECT i, printf('SKU-%04X-%s', i * 37 % 65536, char(65 + r % 26, 65 + (r >> 5) % 26)),
       upper(substr('widget gadget doohickey gizmo thingamajig sprocket', 1 + r % 40, 8)) || ' ' || i,
       CASE r % 5 WHEN 0 THEN 'tools' WHEN 1 THEN 'toys' WHEN 2 THEN 'food'
                  WHEN 3 THEN 'books' ELSE 'garden' END,
       round(0.99 + ((r >> 7) % 20000) / 100.0, 2),
       1 + (r >> 11) % 5000
FROM p;

-- 30,000 orders and about 90,000 order lines, in one transaction.
BEGIN;
WITH RECURSIVE o(i, r) AS (
  SELECT 1, 424242
  UNION ALL
  SELECT i + 1, (r * 1103515245 + 12345) % 2147483648 FROM o WHERE i < 30000)
INSERT INTO orders
SELECT i, 1 + (r >> 13) % 2000, (r >> 3) % 1000,
       CASE (r >> 24) % 10 WHEN 0 THEN 'cancelled' WHEN 1 THEN 'returned'
                          WHEN 2 THEN 'pending' ELSE 'shipped' END,
       CASE WHEN (r >> 7) % 13 = 0 THEN 'gift wrap, ' || ((r >> 9) % 97) || ' ribbons' ELSE NULL END
FROM o;
WITH RECURSIVE k(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM k WHERE n < 4)
INSERT OR IGNORE INTO items
SELECT o.id, 1 + (o.id * 7919 + k.n * 104729) % 500,
       1 + (o.id + k.n * 3) % 9,
       (SELECT price FROM products WHERE id = 1 + (o.id * 7919 + k.n * 104729) % 500)
FROM orders AS o JOIN k ON k.n < 1 + o.id % 5;
COMMIT;

SELECT (SELECT count(*) FROM customers) AS customers,
       (SELECT count(*) FROM products) AS products,
       (SELECT count(*) FROM orders) AS orders,
       (SELECT count(*) FROM items) AS items;

.print '== 2. Indexes, ANALYZE and query plans'
CREATE INDEX orders_customer ON orders(customer_id, day);
CREATE INDEX orders_status ON orders(status) WHERE status <> 'shipped';
CREATE INDEX items_product ON items(product_id, qty);
CREATE INDEX customers_city_lower ON customers(lower(city), tier);
ANALYZE;
SELECT tbl, idx, stat FROM sqlite_stat1 ORDER BY tbl, idx;
EXPLAIN QUERY PLAN
SELECT c.name, sum(i.qty * i.unit_price) FROM customers c
JOIN orders o ON o.customer_id = c.id JOIN items i ON i.order_id = o.id
WHERE lower(c.city) = 'oslo' AND c.tier = 2 GROUP BY c.id;

.print '== 3. Aggregates, joins and GROUP BY'
SELECT status, count(*) AS n, min(day), max(day), sum(day), printf('%.4f', avg(day)) AS avg_day
FROM orders GROUP BY status ORDER BY status;
SELECT p.category, count(DISTINCT i.order_id) AS orders, sum(i.qty) AS units,
       printf('%.2f', sum(i.qty * i.unit_price)) AS revenue,
       printf('%.3f', avg(i.unit_price)) AS avg_price, total(p.weight * i.qty) AS grams
FROM items i JOIN products p ON p.id = i.product_id
JOIN orders o ON o.id = i.order_id AND o.status = 'shipped'
GROUP BY p.category HAVING sum(i.qty) > 100 ORDER BY revenue DESC;
SELECT coalesce(c.city, '(none)') AS city, c.tier, count(o.id) AS orders,
       printf('%.2f', coalesce(sum(i.qty * i.unit_price), 0)) AS spent
FROM customers c LEFT JOIN orders o ON o.customer_id = c.id
LEFT JOIN items i ON i.order_id = o.id
GROUP BY 1, 2 ORDER BY 1, 2;
SELECT c.id, c.name, count(*) AS n FROM customers c
WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.id AND o.status = 'shipped')
GROUP BY c.id ORDER BY c.id LIMIT 10;
SELECT count(*) AS big_spenders FROM (
  SELECT o.customer_id, sum(i.qty * i.unit_price) AS s FROM orders o
  JOIN items i ON i.order_id = o.id GROUP BY o.customer_id
  HAVING s > (SELECT avg(qty * unit_price) * 40 FROM items));
SELECT p.id, p.sku, p.title FROM products p
WHERE p.id IN (SELECT product_id FROM items GROUP BY product_id ORDER BY sum(qty) DESC, product_id LIMIT 5)
ORDER BY p.id;

.print '== 4. Window functions'
SELECT * FROM (
  SELECT c.city, c.id, c.balance,
         row_number() OVER w AS rn, rank() OVER w AS rk, dense_rank() OVER w AS drk,
         printf('%.2f', sum(c.balance) OVER (PARTITION BY c.city ORDER BY c.balance DESC, c.id
                                            ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)) AS running,
         lag(c.id, 1, -1) OVER w AS prev_id, lead(c.balance) OVER w AS next_balance,
         ntile(4) OVER w AS quartile,
         printf('%.4f', percent_rank() OVER w) AS pr, printf('%.4f', cume_dist() OVER w) AS cd,
         first_value(c.id) OVER w AS first_id, nth_value(c.id, 3) OVER w AS third_id
  FROM customers c WHERE c.city IS NOT NULL
  WINDOW w AS (PARTITION BY c.city ORDER BY c.balance DESC, c.id))
WHERE rn <= 3 OR rn % 97 = 0 ORDER BY city, rn;
SELECT day / 100 AS century, count(*) AS n,
       sum(count(*)) OVER (ORDER BY day / 100) AS cumulative,
       printf('%.3f', avg(count(*)) OVER (ORDER BY day / 100 ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING)) AS smooth,
       group_concat(DISTINCT status) AS statuses
FROM orders GROUP BY day / 100 ORDER BY century;
SELECT id, total, sum(total) OVER (ORDER BY id RANGE BETWEEN 5 PRECEDING AND 5 FOLLOWING) AS window_sum,
       count(*) FILTER (WHERE total > 500) OVER (ORDER BY id GROUPS BETWEEN 2 PRECEDING AND CURRENT ROW EXCLUDE TIES) AS big_nearby
FROM (SELECT o.id, CAST(sum(i.qty * i.unit_price) AS INTEGER) AS total FROM orders o
      JOIN items i ON i.order_id = o.id WHERE o.id BETWEEN 1000 AND 1040 GROUP BY o.id)
ORDER BY id;

.print '== 5. Updates, deletes, upserts, savepoints and triggers'
CREATE TABLE audit(seq INTEGER PRIMARY KEY, what TEXT, old_value, new_value);
CREATE TRIGGER customers_balance AFTER UPDATE OF balance ON customers
WHEN abs(new.balance - old.balance) > 100
BEGIN
  INSERT INTO audit(what, old_value, new_value)
  VALUES ('balance ' || new.id, old.balance, new.balance);
END;
BEGIN;
UPDATE customers SET balance = round(balance * 1.5 + tier * 10, 2) WHERE id % 7 = 3;
UPDATE items SET unit_price = round(unit_price * 0.9, 2)
WHERE product_id IN (SELECT id FROM products WHERE category = 'toys');
UPDATE orders SET status = 'archived' FROM customers c
WHERE orders.customer_id = c.id AND c.tier = 4 AND orders.day < 100;
DELETE FROM items WHERE order_id IN (SELECT id FROM orders WHERE status = 'cancelled');
DELETE FROM orders WHERE status = 'cancelled';
SAVEPOINT sp1;
DELETE FROM items;
SELECT count(*) AS items_inside_savepoint FROM items;
ROLLBACK TO sp1;
RELEASE sp1;
INSERT INTO products(id, sku, title, category, price, weight)
VALUES (7, 'SKU-NEW-0007', 'REPLACED 7', 'tools', 1.25, 10)
ON CONFLICT(id) DO UPDATE SET title = excluded.title || ' (was ' || products.title || ')',
                              price = products.price + excluded.price;
INSERT OR REPLACE INTO products VALUES (501, 'SKU-0501', 'NEW PRODUCT', 'books', 12.5, 300);
COMMIT;
BEGIN;
DELETE FROM customers WHERE id > 1000;
SELECT count(*) AS customers_before_rollback FROM customers;
ROLLBACK;
SELECT (SELECT count(*) FROM customers) AS customers, (SELECT count(*) FROM orders) AS orders,
       (SELECT count(*) FROM items) AS items, (SELECT count(*) FROM audit) AS audited,
       (SELECT printf('%.2f', sum(balance)) FROM customers) AS balances;
SELECT * FROM audit ORDER BY seq LIMIT 5;
SELECT * FROM products WHERE id IN (7, 501);
SELECT status, count(*) FROM orders GROUP BY status ORDER BY status;

.print '== 6. Text functions and printf'
SELECT id, name, length(name) AS len, upper(name) AS up, substr(name, 6, 5) AS mid,
       replace(name, '-', '/') AS repl, instr(name, 'a') AS pos_a, trim(name, 'cust-') AS trimmed,
       hex(substr(name, -3)) AS hex_tail, quote(city) AS q, unicode(name) AS u,
       name LIKE '%-a%' AS like_a, name GLOB '*[xyz]*' AS glob_xyz,
       printf('%-12.12s|%8.3f|%+d|%x|%o|%e|%10.4g|%q|%c', name, balance, tier, id, id, balance, balance / 7, city, name)
FROM customers WHERE id % 250 = 1 ORDER BY id;
SELECT printf('%5.1f%%', 100.0 * count(*) / (SELECT count(*) FROM orders)) AS share, status
FROM orders GROUP BY status ORDER BY status;
SELECT group_concat(title, ';' ORDER BY title DESC) AS titles FROM products WHERE id <= 12;
SELECT string_agg(category, ',' ORDER BY category) AS categories FROM (SELECT DISTINCT category FROM products);
SELECT char(72, 233, 8364, 128512) AS chars, length(char(72, 233, 8364, 128512)) AS n,
       octet_length(char(72, 233, 8364, 128512)) AS bytes, lower('ÀÉÎ ABC') AS low,
       ltrim('  x  ') || '|' || rtrim('  y  ') || '|' AS trims, format('%s=%d', 'k', 42) AS fmt,
       concat('a', NULL, 'b', 3) AS cat, concat_ws('-', 'a', NULL, 'b', 3) AS cat_ws,
       unistr('\u00e9t\u00e9') AS unistr_;
SELECT count(*) AS regexp_matches FROM customers WHERE name REGEXP '^cust-0[0-9]{3}7-[a-m]+$';

.print '== 7. Numbers: integers, reals, math functions, decimal and IEEE 754'
SELECT 9223372036854775807 AS max_int, -9223372036854775808 AS min_int,
       9223372036854775807 + 1 AS overflow_real, 7 / 2 AS int_div, 7 % -3 AS modulo,
       7.0 / 2 AS real_div, 1e308 * 10 AS inf, -0.0 AS neg_zero, 0.1 + 0.2 AS pointthree,
       CAST('12abc' AS INTEGER) AS cast_int, CAST(3.99 AS INTEGER) AS trunc, round(2.5) AS r1,
       round(-2.5) AS r2, round(1234.5678, -2) AS r3, abs(-9223372036854775807) AS a;
SELECT printf('%.10f', sqrt(2)) AS sqrt2, printf('%.10f', pi()) AS pi, printf('%.6f', exp(1)) AS e,
       printf('%.8f', ln(10)) AS ln10, printf('%.8f', log10(12345)) AS lg, log2(1024) AS l2,
       pow(2, 62) AS p, ceil(-1.5) AS c, floor(-1.5) AS f, trunc(-1.5) AS t,
       printf('%.8f', sin(1) * cos(1) + atan2(1, 2)) AS trig, mod(17.5, 4) AS m,
       printf('%.12g', degrees(radians(123.456))) AS deg, sign(-3) AS s;
SELECT decimal_add('123456789012345678901234567890.123', '0.877') AS dadd,
       decimal_mul('99999999999999999999', '99999999999999999999') AS dmul,
       decimal_sum(x) AS dsum
FROM (SELECT printf('%d.%03d', value, value * 7 % 1000) AS x FROM generate_series(1, 1000));
SELECT ieee754(2.5) AS i1, ieee754(-0.1) AS i2, ieee754(1, -1074) AS tiny,
       hex(ieee754_to_blob(1.0)) AS b, ieee754_from_blob(x'400921FB54442D18') AS pi_;
SELECT printf('%.6f', sum(1.0 / (value * value))) AS basel,
       printf('%.15g', sum(CASE WHEN value % 2 THEN 4.0 ELSE -4.0 END / (2 * value - 1))) AS leibniz
FROM generate_series(1, 200000);
SELECT (SELECT qty FROM items ORDER BY qty LIMIT 1 OFFSET (SELECT count(*) / 2 FROM items)) AS median_qty,
       (SELECT unit_price FROM items ORDER BY unit_price, order_id LIMIT 1
        OFFSET (SELECT count(*) * 9 / 10 FROM items)) AS p90_price;

.print '== 8. JSON'
SELECT json_object('id', c.id, 'name', c.name, 'city', c.city,
                   'orders', (SELECT json_group_array(json_object('id', o.id, 'day', o.day, 'status', o.status))
                              FROM (SELECT * FROM orders WHERE customer_id = c.id ORDER BY id LIMIT 3) o)) AS doc
FROM customers c WHERE c.id IN (1, 2, 3, 1999) ORDER BY c.id;
CREATE TABLE docs(id INTEGER PRIMARY KEY, body TEXT);
INSERT INTO docs
SELECT o.id, json_object('order', o.id, 'customer', o.customer_id,
                         'lines', json_group_array(json_array(i.product_id, i.qty, i.unit_price)),
                         'meta', json_object('note', o.note, 'flags', json_array(o.day % 2 = 0, o.day % 3 = 0)))
FROM orders o JOIN items i ON i.order_id = o.id WHERE o.id <= 3000 GROUP BY o.id;
SELECT count(*) AS docs, sum(json_array_length(body, '$.lines')) AS lines,
       sum(json_extract(body, '$.lines[0][1]')) AS first_qty,
       count(*) FILTER (WHERE body ->> '$.meta.note' IS NOT NULL) AS with_note,
       sum(json_valid(body)) AS valid, printf('%.2f', sum(body -> '$.lines[#-1][2]')) AS last_prices
FROM docs;
SELECT d.id, j.key, j.value, j.type, j.path FROM docs d, json_each(d.body, '$.lines') j
WHERE d.id IN (5, 6) ORDER BY d.id, j.key;
SELECT j.fullkey, j.type, j.atom FROM json_tree('{"a":[1,2.5,{"b":null,"c":"x"}],"d":{"e":true}}') j ORDER BY j.id;
SELECT json_set(body, '$.meta.extra', json('[1,2]'), '$.order', 'replaced') AS modified,
       json_remove(body, '$.lines') AS removed, json_patch(body, '{"meta":{"note":"patched"}}') AS patched,
       json_insert('[1,2]', '$[#]', 3) AS appended, json_replace('{"a":1}', '$.a', 'z') AS replaced,
       json_quote('he said "hi"') AS quoted, json_type(body, '$.customer') AS t, json_pretty('{"x":[1,{"y":2}]}') AS pretty
FROM docs WHERE id = 13;
SELECT json_group_object(category, n) AS by_category FROM (
  SELECT category, count(*) AS n FROM products GROUP BY category ORDER BY category);
SELECT hex(jsonb('{"k":[1,2,3]}')) AS jb, json(jsonb_object('a', 1, 'b', jsonb_array(2, 3))) AS back,
       json_error_position('{"a":1,}') AS error_at;

.print '== 9. Full-text search (FTS5) and R*Tree'
CREATE VIRTUAL TABLE notes USING fts5(title, body);
INSERT INTO notes(rowid, title, body)
SELECT value,
       'note ' || value || ' about ' || CASE value % 4 WHEN 0 THEN 'apples' WHEN 1 THEN 'pears'
                                                   WHEN 2 THEN 'plums' ELSE 'figs' END,
       replace(printf('%.*c', 1 + value % 5, '*'), '*', 'word' || (value % 11) || ' ')
         || CASE WHEN value % 9 = 0 THEN 'rare needle ' ELSE '' END
         || 'lorem ipsum dolor sit amet ' || (value * 31 % 1000)
FROM generate_series(1, 5000);
SELECT count(*) AS apples FROM notes WHERE notes MATCH 'apples';
SELECT count(*) AS needle_or_word3 FROM notes WHERE notes MATCH 'needle OR word3';
SELECT rowid, title, highlight(notes, 1, '[', ']') AS hl FROM notes
WHERE notes MATCH 'title:figs AND needle' ORDER BY rank, rowid LIMIT 5;
SELECT rowid, snippet(notes, 1, '<', '>', '...', 4) AS snip FROM notes
WHERE notes MATCH '"word7 word7"' ORDER BY rowid LIMIT 3;
SELECT count(*) AS prefix FROM notes WHERE notes MATCH 'wor* NOT plums';
CREATE VIRTUAL TABLE boxes USING rtree(id, minx, maxx, miny, maxy);
INSERT INTO boxes
SELECT value, (value * 7919 % 9973) / 10.0, (value * 7919 % 9973) / 10.0 + 0.5 + value % 20,
              (value * 104729 % 9967) / 10.0, (value * 104729 % 9967) / 10.0 + 0.25 + value % 15
FROM generate_series(1, 20000);
SELECT count(*) AS in_window FROM boxes WHERE minx >= 100 AND maxx <= 300 AND miny >= 200 AND maxy <= 400;
SELECT id, minx, maxx, miny, maxy FROM boxes
WHERE maxx >= 500 AND minx <= 502 AND maxy >= 500 AND miny <= 502 ORDER BY id;

.print '== 10. Recursive CTEs: graphs, Mandelbrot, a sudoku'
CREATE TABLE edges(a INTEGER, b INTEGER, w INTEGER);
INSERT INTO edges SELECT value, value * 3 % 200, 1 + value % 7 FROM generate_series(0, 199);
INSERT INTO edges SELECT value, (value * 7 + 1) % 200, 2 + value % 5 FROM generate_series(0, 199);
WITH RECURSIVE reach(n, depth) AS (
  SELECT 1, 0
  UNION
  SELECT e.b, r.depth + 1 FROM edges e JOIN reach r ON e.a = r.n WHERE r.depth < 12)
SELECT count(DISTINCT n) AS reachable, max(depth) AS deepest FROM reach;
WITH RECURSIVE paths(node, cost, path) AS (
  SELECT 0, 0, '0'
  UNION ALL
  SELECT e.b, p.cost + e.w, p.path || '>' || e.b FROM paths p JOIN edges e ON e.a = p.node
  WHERE p.cost + e.w <= 14 AND instr(p.path || '>', '>' || e.b || '>') = 0 AND p.node <> e.b)
SELECT node, min(cost) AS best, count(*) AS routes FROM paths GROUP BY node ORDER BY best, node LIMIT 15;
WITH RECURSIVE
  xaxis(x) AS (VALUES(-2.0) UNION ALL SELECT x + 0.05 FROM xaxis WHERE x < 1.2),
  yaxis(y) AS (VALUES(-1.0) UNION ALL SELECT y + 0.1 FROM yaxis WHERE y < 1.0),
  m(iter, cx, cy, x, y) AS (
    SELECT 0, x, y, 0.0, 0.0 FROM xaxis, yaxis
    UNION ALL
    SELECT iter + 1, cx, cy, x * x - y * y + cx, 2.0 * x * y + cy FROM m
    WHERE (x * x + y * y) < 4.0 AND iter < 28),
  m2(iter, cx, cy) AS (SELECT max(iter), cx, cy FROM m GROUP BY cx, cy),
  a(t) AS (SELECT group_concat(substr(' .+*#', 1 + min(iter / 7, 4), 1), '') FROM m2 GROUP BY cy)
SELECT group_concat(rtrim(t), x'0a') AS mandelbrot FROM a;
WITH RECURSIVE
  input(sud) AS (VALUES('53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79')),
  digits(z, lp) AS (VALUES('1', 1) UNION ALL SELECT CAST(lp + 1 AS TEXT), lp + 1 FROM digits WHERE lp < 9),
  x(s, ind) AS (
    SELECT sud, instr(sud, '.') FROM input
    UNION ALL
    SELECT substr(s, 1, ind - 1) || z || substr(s, ind + 1),
           instr(substr(s, 1, ind - 1) || z || substr(s, ind + 1), '.')
    FROM x, digits AS z
    WHERE ind > 0 AND NOT EXISTS (
      SELECT 1 FROM digits AS lp
      WHERE z.z = substr(s, ((ind - 1) / 9) * 9 + lp, 1)
         OR z.z = substr(s, ((ind - 1) % 9) + (lp - 1) * 9 + 1, 1)
         OR z.z = substr(s, (((ind - 1) / 3) % 3) * 3 + ((ind - 1) / 27) * 27 + lp
                            + ((lp - 1) / 3) * 6, 1)))
SELECT s AS solution FROM x WHERE ind = 0;

.print '== 11. Set operations, CASE, NULLs, collations, generated columns'
SELECT customer_id FROM orders WHERE day < 20
INTERSECT SELECT customer_id FROM orders WHERE day > 980
EXCEPT SELECT id FROM customers WHERE tier = 1 ORDER BY 1 LIMIT 10;
SELECT count(*) AS unioned FROM (SELECT city FROM customers UNION SELECT category FROM products);
SELECT count(*) AS union_all FROM (SELECT city FROM customers UNION ALL SELECT category FROM products);
SELECT column1 AS name FROM (VALUES ('b'), ('B'), ('a'), ('A'), ('é'), ('E')) ORDER BY name COLLATE NOCASE, name;
SELECT x, x IS NULL, x IS NOT 1, nullif(x, 2), ifnull(x, 'z'), iif(x > 1, 'big', 'small'),
       CASE WHEN x IS NULL THEN 'null' WHEN x BETWEEN 1 AND 2 THEN 'low' ELSE 'high' END
FROM (SELECT NULL AS x UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3) ORDER BY x NULLS LAST;
CREATE TABLE shapes(w REAL, h REAL, area REAL GENERATED ALWAYS AS (w * h) STORED,
                    label TEXT GENERATED ALWAYS AS (printf('%gx%g', w, h)) VIRTUAL, CHECK (w > 0));
INSERT INTO shapes(w, h) SELECT value, value / 4.0 FROM generate_series(1, 1000);
SELECT count(*), sum(area), max(label), min(label) FROM shapes;
CREATE TABLE strict_t(a INTEGER, b TEXT, c ANY) STRICT;
INSERT INTO strict_t VALUES (1, 'x', 1.5), (2, 'y', x'00ff'), (3, 'z', 'text');
SELECT a, b, c, typeof(c) FROM strict_t ORDER BY a;

.print '== 12. Views, integrity, hashes of whole tables'
CREATE VIEW order_totals AS
SELECT o.id, o.customer_id, o.status, sum(i.qty * i.unit_price) AS total, count(*) AS lines
FROM orders o JOIN items i ON i.order_id = o.id GROUP BY o.id;
SELECT status, count(*), printf('%.2f', sum(total)), sum(lines) FROM order_totals GROUP BY status ORDER BY status;
PRAGMA integrity_check;
PRAGMA foreign_key_check;
SELECT name, hex(sha3_query('SELECT * FROM "' || name || '" ORDER BY 1, 2')) AS digest
FROM sqlite_schema WHERE type = 'table' AND name IN ('customers', 'products', 'orders', 'items', 'audit', 'docs', 'shapes')
ORDER BY name;
SELECT hex(sha3('divcc', 256)) AS sha3_256, sha1('divcc') AS sha1_,
       base64(x'00010203fffefd') AS b64, hex(base64('AAECA//+/Q==')) AS unb64, base85(x'68656c6c6f') AS b85;
SELECT name, count(*) AS pages FROM dbstat GROUP BY name ORDER BY name;

.print '== 13. VACUUM, WAL and a big sort'
DROP TABLE docs;
VACUUM;
PRAGMA journal_mode = WAL;
BEGIN;
INSERT INTO orders(customer_id, day, status, note)
SELECT 1 + value % 2000, value % 1000, 'wal', printf('%08d', value * 2654435761 % 100000000)
FROM generate_series(1, 20000);
COMMIT;
PRAGMA wal_checkpoint(TRUNCATE);
SELECT count(*), min(note), max(note) FROM orders WHERE status = 'wal';
SELECT note FROM orders WHERE status = 'wal' ORDER BY note DESC LIMIT 5 OFFSET 1000;
PRAGMA journal_mode = DELETE;
PRAGMA integrity_check;
.sha3sum
.print '== end'
