/**
 * The GraphiQL page of development mode (`GET /graphiql?projectKey=<key>`). It loads GraphiQL
 * from a CDN and posts to `/{projectKey}/graphql`; the bearer token goes into the headers editor.
 * Never served in production mode.
 */
export function graphiqlPage(defaultProjectKey: string): string {
  // JSON in a <script>: `<` is escaped so a key can never close the tag.
  const projectKey = JSON.stringify(defaultProjectKey).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <title>Herald GraphQL</title>
  <style>body { margin: 0; height: 100vh; } #graphiql { height: 100vh; }</style>
  <link rel="stylesheet" href="https://unpkg.com/graphiql@3/graphiql.min.css" />
  <script crossorigin src="https://unpkg.com/react@18/umd/react.production.min.js"></script>
  <script crossorigin src="https://unpkg.com/react-dom@18/umd/react-dom.production.min.js"></script>
  <script crossorigin src="https://unpkg.com/graphiql@3/graphiql.min.js"></script>
</head>
<body>
  <div id="graphiql">Loading GraphiQL…</div>
  <script>
    const projectKey = new URLSearchParams(location.search).get('projectKey') || ${projectKey};
    const fetcher = GraphiQL.createFetcher({ url: '/' + encodeURIComponent(projectKey) + '/graphql' });
    ReactDOM.createRoot(document.getElementById('graphiql')).render(
      React.createElement(GraphiQL, {
        fetcher,
        defaultHeaders: JSON.stringify({ Authorization: 'Bearer <access token>' }, null, 2),
        isHeadersEditorEnabled: true,
        shouldPersistHeaders: false,
      }),
    );
  </script>
</body>
</html>
`;
}
