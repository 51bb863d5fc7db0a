# Written from the Neo4j 5 Cypher Manual's page "Spatial values": the POINT type in its four coordinate
# reference systems, the components a point has (and the ones its CRS lacks), points as properties and in
# lists, equality, DISTINCT and grouping, the comparison operators (null between points), ORDER BY, and
# the type predicates. Points in results are shown as toString() shows them.
Feature: Manual - spatial values

  Scenario: [1] The components of a Cartesian 2D point
    When executing query:
      """
      WITH point({x: 3, y: 4}) AS p
      RETURN p.x AS x, p.y AS y, p.crs AS crs, p.srid AS srid
      """
    Then the result should be, in any order:
      | x   | y   | crs         | srid |
      | 3.0 | 4.0 | 'cartesian' | 7203 |
    And no side effects

  Scenario: [2] The components of a WGS-84 3D point, x and y being the longitude and latitude
    When executing query:
      """
      WITH point({latitude: 3, longitude: 4, height: 4321}) AS p
      RETURN p.latitude AS latitude, p.longitude AS longitude, p.height AS height, p.x AS x, p.y AS y, p.z AS z, p.crs AS crs, p.srid AS srid
      """
    Then the result should be, in any order:
      | latitude | longitude | height | x   | y   | z      | crs         | srid |
      | 3.0      | 4.0       | 4321.0 | 4.0 | 3.0 | 4321.0 | 'wgs-84-3d' | 4979 |
    And no side effects

  Scenario: [2b] One point in each of the four CRSs, the CRS deduced from the keys and the dimension
    When executing query:
      """
      RETURN toString(point({x: 3, y: 0})) AS cartesian_2d, toString(point({x: 0, y: 4, z: 1})) AS cartesian_3d,
             toString(point({latitude: 12, longitude: 56})) AS geo_2d, toString(point({latitude: 12, longitude: 56, height: 1000})) AS geo_3d
      """
    Then the result should be, in any order:
      | cartesian_2d                                  | cartesian_3d                                            | geo_2d                                      | geo_3d                                                  |
      | 'point({x: 3.0, y: 0.0, crs: \'cartesian\'})' | 'point({x: 0.0, y: 4.0, z: 1.0, crs: \'cartesian-3d\'})' | 'point({x: 56.0, y: 12.0, crs: \'wgs-84\'})' | 'point({x: 56.0, y: 12.0, z: 1000.0, crs: \'wgs-84-3d\'})' |
    And no side effects

  Scenario: [2c] Converting units: a geographic distance in kilometres
    When executing query:
      """
      WITH point({latitude: toFloat('13.43'), longitude: toFloat('56.21')}) AS p1,
           point({latitude: toFloat('13.10'), longitude: toFloat('56.41')}) AS p2
      RETURN toInteger(point.distance(p1, p2) / 1000) AS km
      """
    Then the result should be, in any order:
      | km |
      | 42 |
    And no side effects

  Scenario: [2d] A 2D and a 3D point have no distance until one is transformed into the other's CRS
    When executing query:
      """
      WITH point({x: 3, y: 0}) AS p2d, point({x: 0, y: 4, z: 1}) AS p3d
      RETURN point.distance(p2d, p3d) AS bad, point.distance(p2d, point({x: p3d.x, y: p3d.y})) AS good
      """
    Then the result should be, in any order:
      | bad  | good |
      | null | 5.0  |
    And no side effects

  Scenario Outline: [3] A component the point's CRS lacks is an error: <expr>
    When executing query:
      """
      WITH <point> AS p RETURN <expr> AS v
      """
    Then a ArgumentError should be raised at runtime: InvalidArgumentValue

    Examples:
      | point                                  | expr        |
      | point({x: 1, y: 2})                    | p.z         |
      | point({x: 1, y: 2})                    | p.latitude  |
      | point({x: 1, y: 2, z: 3})              | p.height    |
      | point({longitude: 1, latitude: 2})     | p.height    |
      | point({longitude: 1, latitude: 2})     | p.z         |
      | point({x: 1, y: 2})                    | p.month     |

  Scenario: [4] A geographic longitude outside [-180, 180] is wrapped into it
    When executing query:
      """
      RETURN point({longitude: 190, latitude: 10}).longitude AS east, point({longitude: -540, latitude: 10}).longitude AS west
      """
    Then the result should be, in any order:
      | east   | west   |
      | -170.0 | -180.0 |
    And no side effects

  Scenario: [5] Points and lists of points are stored as properties and read back
    When executing query:
      """
      CREATE (n:Place {name: 'Malmö', location: point({longitude: 12.994341, latitude: 55.611784}),
                       route: [point({x: 0, y: 0}), point({x: 3, y: 4})]})
      RETURN toString(n.location) AS location, point.distance(n.route[0], n.route[1]) AS leg, size(n.route) AS stops
      """
    Then the result should be, in any order:
      | location                                               | leg | stops |
      | 'point({x: 12.994341, y: 55.611784, crs: \'wgs-84\'})' | 5.0 | 2     |
    And the side effects should be:
      | +nodes      | 1 |
      | +labels     | 1 |
      | +properties | 3 |

  Scenario: [6] A list of points of different CRSs cannot be stored
    Given an empty graph
    When executing query:
      """
      CREATE (n:Place {route: [point({x: 0, y: 0}), point({longitude: 0, latitude: 0})]})
      """
    Then a TypeError should be raised at runtime: InvalidPropertyType

  Scenario: [7] Points are equal when their CRS and coordinates are
    When executing query:
      """
      RETURN point({x: 1, y: 2}) = point({x: 1.0, y: 2.0, crs: 'cartesian'}) AS same,
             point({x: 1, y: 2}) = point({x: 1, y: 2, crs: 'wgs-84'}) AS otherCrs,
             point({x: 1, y: 2}) <> point({x: 2, y: 1}) AS differ,
             point({x: 1, y: 2}) = null AS withNull,
             [point({x: 1, y: 2})] = [point({x: 1, y: 2})] AS inLists
      """
    Then the result should be, in any order:
      | same | otherCrs | differ | withNull | inLists |
      | true | false    | true   | null     | true    |
    And no side effects

  Scenario: [8] The inequality operators are null between points
    When executing query:
      """
      WITH point({x: 1, y: 2}) AS a, point({x: 3, y: 4}) AS b
      RETURN a < b AS lt, a <= a AS le, b > a AS gt, a >= b AS ge
      """
    Then the result should be, in any order:
      | lt   | le   | gt   | ge   |
      | null | null | null | null |
    And no side effects

  Scenario: [9] DISTINCT and grouping keep one row per point
    When executing query:
      """
      UNWIND [point({x: 1, y: 2}), point({x: 1.0, y: 2.0}), point({longitude: 1, latitude: 2}), point({x: 1, y: 2, z: 0})] AS p
      RETURN toString(p) AS point, count(*) AS n
      """
    Then the result should be, in any order:
      | point                                                   | n |
      | 'point({x: 1.0, y: 2.0, crs: \'cartesian\'})'            | 2 |
      | 'point({x: 1.0, y: 2.0, crs: \'wgs-84\'})'               | 1 |
      | 'point({x: 1.0, y: 2.0, z: 0.0, crs: \'cartesian-3d\'})' | 1 |
    And no side effects

  Scenario: [10] ORDER BY puts points after paths and before temporal values, by SRID and then coordinates
    When executing query:
      """
      UNWIND [point({x: 2, y: 0}), 'text', date('2020-01-01'), point({x: 1, y: 5}), point({longitude: 10, latitude: -5}),
              point({x: 0, y: 0, z: 0}), [1], point({longitude: 10, latitude: -6})] AS v
      RETURN CASE WHEN v IS :: POINT THEN toString(v) ELSE valueType(v) END AS shown
      ORDER BY v
      """
    Then the result should be, in order:
      | shown                                                   |
      | 'LIST<INTEGER NOT NULL> NOT NULL'                       |
      | 'point({x: 10.0, y: -6.0, crs: \'wgs-84\'})'             |
      | 'point({x: 10.0, y: -5.0, crs: \'wgs-84\'})'             |
      | 'point({x: 1.0, y: 5.0, crs: \'cartesian\'})'            |
      | 'point({x: 2.0, y: 0.0, crs: \'cartesian\'})'            |
      | 'point({x: 0.0, y: 0.0, z: 0.0, crs: \'cartesian-3d\'})' |
      | 'DATE NOT NULL'                                         |
      | 'STRING NOT NULL'                                       |
    And no side effects

  Scenario: [11] The type predicates and valueType() know POINT
    When executing query:
      """
      WITH point({x: 1, y: 2}) AS p
      RETURN p IS :: POINT AS isPoint, p IS :: POINT NOT NULL AS notNull, p IS :: MAP AS isMap,
             valueType(p) AS type, valueType([p, p]) AS listType, [p] IS :: LIST<POINT> AS isList,
             p IS :: PROPERTY VALUE AS storable
      """
    Then the result should be, in any order:
      | isPoint | notNull | isMap | type             | listType                        | isList | storable |
      | true    | true    | false | 'POINT NOT NULL' | 'LIST<POINT NOT NULL> NOT NULL' | true   | true     |
    And no side effects

  Scenario: [12] min and max order points as ORDER BY does
    When executing query:
      """
      UNWIND [point({x: 2, y: 0}), point({x: 1, y: 5}), point({x: 1, y: 4})] AS p
      RETURN toString(min(p)) AS least, toString(max(p)) AS greatest
      """
    Then the result should be, in any order:
      | least                                          | greatest                                       |
      | 'point({x: 1.0, y: 4.0, crs: \'cartesian\'})' | 'point({x: 2.0, y: 0.0, crs: \'cartesian\'})' |
    And no side effects

  Scenario: [13] A point property is filtered with an index on it: equality finds it, a range finds no point
    Given an empty graph
    And having executed:
      """
      CREATE INDEX place_location FOR (n:Place) ON (n.location)
      """
    And having executed:
      """
      CREATE (:Place {name: 'a', location: point({x: 1, y: 2})}), (:Place {name: 'b', location: point({x: 5, y: 5})}),
             (:Place {name: 'c', location: point({longitude: 1, latitude: 2})})
      """
    When executing query:
      """
      MATCH (n:Place)
      RETURN [x IN collect(CASE WHEN n.location = point({x: 1, y: 2}) THEN n.name END) WHERE x IS NOT NULL] AS equal,
             [x IN collect(CASE WHEN n.location > point({x: 0, y: 0}) THEN n.name END) WHERE x IS NOT NULL] AS greater
      """
    Then the result should be, in any order:
      | equal | greater |
      | ['a'] | []      |
    And no side effects

  Scenario: [14] A point joins a string as its text; other arithmetic on points is refused
    When executing query:
      """
      RETURN 'at ' + point({x: 1, y: 2}) AS joined, point({latitude: 2, longitude: 1}) + '!' AS trailing
      """
    Then the result should be, in any order:
      | joined                                            | trailing                                        |
      | 'at point({x: 1.0, y: 2.0, crs: \'cartesian\'})' | 'point({x: 1.0, y: 2.0, crs: \'wgs-84\'})!'     |
    And no side effects

  Scenario: [15] Adding a number to a point is a type error
    When executing query:
      """
      WITH point({x: 1, y: 2}) AS p RETURN p + 1 AS q
      """
    Then a TypeError should be raised at runtime: InvalidArgumentType

  Scenario: [16] A property type constraint IS :: POINT takes points only, and a uniqueness constraint tells points apart by CRS
    Given an empty graph
    And having executed:
      """
      CREATE CONSTRAINT spot_at_type FOR (n:Spot) REQUIRE n.at IS :: POINT
      """
    And having executed:
      """
      CREATE CONSTRAINT spot_at_unique FOR (n:Spot) REQUIRE n.at IS UNIQUE
      """
    And having executed:
      """
      CREATE (:Spot {at: point({x: 1, y: 2})}), (:Spot {at: point({x: 1, y: 2, crs: 'wgs-84'})})
      """
    When executing query:
      """
      MATCH (n:Spot) RETURN n.at.crs AS crs ORDER BY crs
      """
    Then the result should be, in order:
      | crs         |
      | 'cartesian' |
      | 'wgs-84'    |
    And no side effects

  Scenario: [17] There is no point index
    When executing query:
      """
      CREATE POINT INDEX spot_at FOR (n:Spot) ON (n.at)
      """
    Then a SyntaxError should be raised at compile time: UnexpectedSyntax
