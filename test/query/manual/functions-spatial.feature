# Written from the Neo4j 5 Cypher Manual's page "Spatial functions": point() in its four forms (WGS-84 2D
# and 3D, Cartesian 2D and 3D), point.distance() and point.withinBBox(), each example with the page's
# answer, then the considerations the page names (null in, null out; points of different CRSs) and the
# arguments point() refuses. The deprecated distance() is gone from Neo4j 5 and is unknown here too.
Feature: Manual - spatial functions

  Background:
    Given an empty graph
    And having executed:
      """
      CREATE (copenhagen:TrainStation {longitude: 12.564590, latitude: 55.672874, city: 'Copenhagen'}),
             (malmo:Office {longitude: 12.994341, latitude: 55.611784, city: 'Malmö'}),
             (copenhagen)-[:TRAVEL_ROUTE]->(malmo)
      """

  Scenario: [1] point.distance() of two Cartesian points is the Euclidean distance
    When executing query:
      """
      WITH point({x: 2.3, y: 4.5, crs: 'cartesian'}) AS p1, point({x: 1.1, y: 5.4, crs: 'cartesian'}) AS p2
      RETURN point.distance(p1, p2) AS dist
      """
    Then the result should be, in any order:
      | dist |
      | 1.5  |
    And no side effects

  Scenario: [2] point.distance() of two WGS-84 3D points, at their mean height
    When executing query:
      """
      WITH point({longitude: 12.78, latitude: 56.7, height: 100}) AS p1,
           point({latitude: 56.71, longitude: 12.79, height: 100}) AS p2
      RETURN point.distance(p1, p2) AS dist
      """
    Then the result should be, in any order:
      | dist               |
      | 1269.9148706779097 |
    And no side effects

  Scenario: [3] point.distance() between a train station and an office, in meters
    When executing query:
      """
      MATCH (t:TrainStation)-[:TRAVEL_ROUTE]->(o:Office)
      WITH point({longitude: t.longitude, latitude: t.latitude}) AS trainPoint,
           point({longitude: o.longitude, latitude: o.latitude}) AS officePoint
      RETURN round(point.distance(trainPoint, officePoint)) AS travelDistance
      """
    Then the result should be, in any order:
      | travelDistance |
      | 27842.0        |
    And no side effects

  Scenario: [4] point.distance() in a WHERE keeps the rows within a radius
    When executing query:
      """
      MATCH (t:TrainStation)
      WHERE point.distance(point({longitude: t.longitude, latitude: t.latitude}), point({longitude: 12.57, latitude: 55.67})) < 1000
      RETURN t.city AS city
      """
    Then the result should be, in any order:
      | city         |
      | 'Copenhagen' |
    And no side effects

  Scenario Outline: [5] point.distance() is null for a null argument and across CRSs: <args>
    When executing query:
      """
      RETURN point.distance(<args>) AS d
      """
    Then the result should be, in any order:
      | d    |
      | null |
    And no side effects

    Examples:
      | args                                                                                  |
      | null, point({longitude: 56.7, latitude: 12.78})                                       |
      | point({longitude: 56.7, latitude: 12.78}), null                                       |
      | null, null                                                                            |
      | point({longitude: 56.7, latitude: 12.78}), point({x: 56.7, y: 12.78})                 |
      | point({longitude: 56.7, latitude: 12.78}), point({longitude: 56.7, latitude: 12.78, height: 0}) |

  Scenario: [6] point.withinBBox() of a Cartesian point inside the box
    When executing query:
      """
      WITH point({x: 0, y: 0, crs: 'cartesian'}) AS lowerLeft, point({x: 10, y: 10, crs: 'cartesian'}) AS upperRight
      RETURN point.withinBBox(point({x: 5, y: 5, crs: 'cartesian'}), lowerLeft, upperRight) AS result
      """
    Then the result should be, in any order:
      | result |
      | true   |
    And no side effects

  Scenario: [7] point.withinBBox() in a WHERE finds the stations in a box
    When executing query:
      """
      WITH point({longitude: 12.53, latitude: 55.66}) AS lowerLeft, point({longitude: 12.614, latitude: 55.70}) AS upperRight
      MATCH (t:TrainStation)
      WHERE point.withinBBox(point({longitude: t.longitude, latitude: t.latitude}), lowerLeft, upperRight)
      RETURN count(t)
      """
    Then the result should be, in any order:
      | count(t) |
      | 1        |
    And no side effects

  Scenario: [8] point.withinBBox() across the 180th meridian
    When executing query:
      """
      WITH point({longitude: 179, latitude: 55.66}) AS lowerLeft, point({longitude: -179, latitude: 55.70}) AS upperRight
      RETURN point.withinBBox(point({longitude: 180, latitude: 55.66}), lowerLeft, upperRight) AS result,
             point.withinBBox(point({longitude: 0, latitude: 55.66}), lowerLeft, upperRight) AS farSide,
             point.withinBBox(point({longitude: 0, latitude: 55.66}), upperRight, lowerLeft) AS longWayRound
      """
    Then the result should be, in any order:
      | result | farSide | longWayRound |
      | true   | false   | false        |
    And no side effects

  Scenario Outline: [9] point.withinBBox() is null for a null argument and across CRSs: <args>
    When executing query:
      """
      RETURN point.withinBBox(<args>) AS in
      """
    Then the result should be, in any order:
      | in   |
      | null |
    And no side effects

    Examples:
      | args                                                                                                    |
      | null, point({longitude: 56.7, latitude: 12.78}), point({longitude: 57.0, latitude: 13.0})               |
      | point({longitude: 56.8, latitude: 12.9}), null, point({longitude: 57.0, latitude: 13.0})                |
      | point({x: 1, y: 1}), point({longitude: 56.7, latitude: 12.78}), point({longitude: 57.0, latitude: 13.0}) |

  Scenario Outline: [10] point() in its four forms: <map>
    When executing query:
      """
      WITH point(<map>) AS p
      RETURN toString(p) AS text, p.crs AS crs, p.srid AS srid
      """
    Then the result should be, in any order:
      | text   | crs   | srid   |
      | <text> | <crs> | <srid> |
    And no side effects

    Examples:
      | map                                            | text                                                    | crs          | srid |
      | {longitude: 56.7, latitude: 12.78}             | 'point({x: 56.7, y: 12.78, crs: \'wgs-84\'})'            | 'wgs-84'     | 4326 |
      | {x: 2.3, y: 4.5, crs: 'WGS-84'}                | 'point({x: 2.3, y: 4.5, crs: \'wgs-84\'})'               | 'wgs-84'     | 4326 |
      | {longitude: 56.7, latitude: 12.78, height: 8}  | 'point({x: 56.7, y: 12.78, z: 8.0, crs: \'wgs-84-3d\'})' | 'wgs-84-3d'  | 4979 |
      | {x: 2.3, y: 4.5}                               | 'point({x: 2.3, y: 4.5, crs: \'cartesian\'})'            | 'cartesian'  | 7203 |
      | {x: 2.3, y: 4.5, z: 2}                         | 'point({x: 2.3, y: 4.5, z: 2.0, crs: \'cartesian-3d\'})' | 'cartesian-3d' | 9157 |
      | {x: 2.3, y: 4.5, srid: 4326}                   | 'point({x: 2.3, y: 4.5, crs: \'wgs-84\'})'               | 'wgs-84'     | 4326 |
      | {latitude: 12.78, longitude: 56.7, srid: 4979, height: 1} | 'point({x: 56.7, y: 12.78, z: 1.0, crs: \'wgs-84-3d\'})' | 'wgs-84-3d' | 4979 |
      | {longitude: 56.7, latitude: 12.78, z: 8}       | 'point({x: 56.7, y: 12.78, z: 8.0, crs: \'wgs-84-3d\'})' | 'wgs-84-3d'  | 4979 |
      | {x: 56.7, y: 12.78, z: 8, crs: 'wgs-84-3d'}    | 'point({x: 56.7, y: 12.78, z: 8.0, crs: \'wgs-84-3d\'})' | 'wgs-84-3d'  | 4979 |
      | {X: 1, Y: 2, CRS: 'Cartesian', color: 'red'}   | 'point({x: 1.0, y: 2.0, crs: \'cartesian\'})'            | 'cartesian'  | 7203 |

  Scenario: [11] point() of a node's coordinates
    When executing query:
      """
      MATCH (p:Office) RETURN point({longitude: p.longitude, latitude: p.latitude}) = point({x: 12.994341, y: 55.611784, crs: 'wgs-84'}) AS officePoint
      """
    Then the result should be, in any order:
      | officePoint |
      | true        |
    And no side effects

  Scenario Outline: [12] point() is null when its argument or a coordinate is: <map>
    When executing query:
      """
      RETURN point(<map>) AS p
      """
    Then the result should be, in any order:
      | p    |
      | null |
    And no side effects

    Examples:
      | map                               |
      | null                              |
      | {x: null, y: 1}                   |
      | {longitude: 1, latitude: null}    |
      | {x: 1, y: 2, crs: null}           |

  Scenario Outline: [13] point() refuses a map that makes no point: <map>
    When executing query:
      """
      RETURN point(<map>) AS p
      """
    Then a ArgumentError should be raised at runtime: InvalidArgumentValue

    Examples:
      | map                                        |
      | {longitude: 0, latitude: 91}               |
      | {x: 0, y: -90.5, crs: 'wgs-84'}            |
      | {x: 1, latitude: 2}                        |
      | {x: 1}                                     |
      | {longitude: 1}                             |
      | {x: 1, y: 2, crs: 'mercator'}              |
      | {x: 1, y: 2, srid: 3857}                   |
      | {x: 1, y: 2, crs: 'cartesian', srid: 7203} |
      | {x: 1, y: 2, crs: 'cartesian-3d'}          |
      | {x: 1, y: 2, z: 3, crs: 'wgs-84'}          |
      | {longitude: 1, latitude: 2, crs: 'cartesian'} |
      | {x: 1, y: 2, height: 3}                    |
      | {longitude: 1, latitude: 2, height: 3, z: 3} |

  Scenario Outline: [14] point() refuses coordinates that are not numbers: <map>
    When executing query:
      """
      WITH <map> AS m RETURN point(m) AS p
      """
    Then a TypeError should be raised at runtime: InvalidArgumentValue

    Examples:
      | map                       |
      | {x: '1', y: 2}            |
      | {x: 1, y: 2, crs: 4326}   |
      | {x: 1, y: 2, srid: '4326'} |

  Scenario: [15] point() of something other than a map fails before running
    When executing query:
      """
      RETURN point(1) AS p
      """
    Then a SyntaxError should be raised at compile time: InvalidArgumentType

  Scenario: [16] point.distance() of something other than a point fails
    When executing query:
      """
      WITH 1 AS notAPoint RETURN point.distance(notAPoint, point({x: 0, y: 0})) AS d
      """
    Then a TypeError should be raised at runtime: InvalidArgumentValue

  Scenario: [17] The deprecated distance() is not a function in Neo4j 5
    When executing query:
      """
      RETURN distance(point({x: 0, y: 0}), point({x: 1, y: 0})) AS d
      """
    Then a SyntaxError should be raised at compile time: UnknownFunction
