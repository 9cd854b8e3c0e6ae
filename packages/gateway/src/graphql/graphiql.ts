import { GRAPHIQL_SCRIPTS, GRAPHIQL_STYLESHEET, graphiqlAssetUrl } from './graphiql-assets.js';

/**
 * The GraphiQL page of development mode (`GET /graphiql?projectKey=<key>`). Its scripts and styles
 * are Herald's own pinned npm dependencies, served under /graphiql/assets/ (graphiql-assets.ts), so
 * it works offline; it posts to `/{projectKey}/graphql`; the bearer token goes into the headers
 * editor. Never served in production mode.
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
  <link rel="stylesheet" href="${graphiqlAssetUrl(GRAPHIQL_STYLESHEET)}" />
${GRAPHIQL_SCRIPTS.map((script) => `  <script src="${graphiqlAssetUrl(script)}"></script>`).join('\n')}
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
